import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aggregateReports, collectTestReports, parseJUnitFile, parseJUnitXml } from '../../src/index.js';
import { scratchDir } from './helpers.js';

// Shaped like Maven Surefire / jest-junit output: a <testsuites> root, properties, nested output, entities.
const REALISTIC = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="6" failures="1" errors="1" time="3.21">
  <testsuite name="cart &amp; checkout" tests="4" failures="1" errors="0" skipped="1" time="2.5" timestamp="2024-05-01T10:00:00">
    <properties><property name="java.version" value="21"/></properties>
    <testcase classname="shop.CartTest" name="adds an item" time="0.120"/>
    <testcase classname="shop.CartTest" name="removes an item" time="0.080">
      <system-out>removing item 42
done</system-out>
    </testcase>
    <testcase classname="shop.CartTest" name="applies &quot;SALE&quot; coupon" time="1.5">
      <failure message="expected 90 but was 100" type="AssertionError">AssertionError: expected 90 but was 100
    at CartTest.java:57</failure>
    </testcase>
    <testcase classname="shop.CartTest" name="pays with bitcoin">
      <skipped message="not supported yet"/>
    </testcase>
  </testsuite>
  <testsuite name="db" time="0.71">
    <testcase classname="shop.DbTest" name="connects" time="0.7">
      <error type="ConnectionRefused">connect ECONNREFUSED 127.0.0.1:5432</error>
    </testcase>
    <testcase classname="shop.DbTest" name="migrates" time="0.01"/>
  </testsuite>
</testsuites>`;

describe('JUnit parsing', () => {
  it('parses a realistic report with failures, errors and skips', () => {
    const r = parseJUnitXml(REALISTIC);
    expect(r).toMatchObject({ suites: 2, tests: 6, failures: 1, errors: 1, skipped: 1, duration_s: 3.21 });
    expect(r.cases).toHaveLength(6);
    expect(r.cases[0]).toEqual({
      suite: 'cart & checkout',
      classname: 'shop.CartTest',
      name: 'adds an item',
      status: 'passed',
      duration_s: 0.12,
    });
    expect(r.cases[1].system_out).toBe('removing item 42\ndone');
    expect(r.cases[2]).toMatchObject({
      name: 'applies "SALE" coupon',
      status: 'failed',
      message: 'expected 90 but was 100\nAssertionError: expected 90 but was 100\n    at CartTest.java:57',
      duration_s: 1.5,
    });
    expect(r.cases[3]).toMatchObject({ status: 'skipped', message: 'not supported yet', duration_s: 0 });
    expect(r.cases[4]).toMatchObject({
      suite: 'db',
      status: 'error',
      message: 'connect ECONNREFUSED 127.0.0.1:5432',
    });
  });

  it('decodes numeric character references as pytest writes them, keeping the message and the trace', () => {
    // Shaped like pytest's --junitxml output: the message attribute and the trace both use &#10; etc.
    const r =
      parseJUnitXml(`<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="0" tests="1" time="0.05"><testcase classname="test_cafe" name="test_caf&#233;" time="0.001"><failure message="AssertionError: caf&#233; != cafe&#10;assert 'caf&#233;' == 'cafe'&#10;  - cafe&#10;  + caf&#233;">def test_caf&#233;():
&gt;       assert "caf&#233;" == "cafe"
E       AssertionError: &#x1F600; caf&#233; != cafe

test_cafe.py:2: AssertionError</failure></testcase></testsuite></testsuites>`);
    expect(r.cases[0].name).toBe('test_café');
    expect(r.cases[0].message).toBe(
      [
        'AssertionError: café != cafe',
        "assert 'café' == 'cafe'",
        '  - cafe',
        '  + café',
        'def test_café():',
        '>       assert "café" == "cafe"',
        'E       AssertionError: 😀 café != cafe',
        '',
        'test_cafe.py:2: AssertionError',
      ].join('\n'),
    );
    expect(r.cases[0].message).not.toContain('&#');
  });

  it('accepts a bare <testsuite> root and nested suites, summing case times when a suite has none', () => {
    const r = parseJUnitXml(
      '<testsuite name="outer"><testsuite name="inner"><testcase name="a" time="0.25"/><testcase name="b" time="0.5"/></testsuite></testsuite>',
    );
    expect(r).toMatchObject({ suites: 1, tests: 2, duration_s: 0.75 });
    expect(r.cases.map((c) => c.suite)).toEqual(['inner', 'inner']);
  });

  it('truncates long system-out', () => {
    const r = parseJUnitXml(
      `<testsuite><testcase name="x"><system-out>${'y'.repeat(10_000)}</system-out></testcase></testsuite>`,
    );
    expect(r.cases[0].system_out!.length).toBeLessThan(4200);
    expect(r.cases[0].system_out).toMatch(/truncated\)$/);
  });

  it('reports malformed and non-JUnit files as unreadable instead of throwing', async () => {
    const dir = scratchDir('junit-');
    writeFileSync(join(dir, 'broken.xml'), '<testsuite><testcase name="a"></testsuite>');
    writeFileSync(join(dir, 'other.xml'), '<project><name>x</name></project>');
    const broken = await parseJUnitFile(join(dir, 'broken.xml'), 'broken.xml');
    expect(broken.tests).toBe(0);
    expect(broken.unreadable).toHaveLength(1);
    expect(broken.unreadable![0].file).toBe('broken.xml');
    expect(broken.unreadable![0].error).toMatch(/not well-formed XML/);
    const other = await parseJUnitFile(join(dir, 'other.xml'), 'other.xml');
    expect(other.unreadable![0].error).toBe('no <testsuites> or <testsuite> root element');
    const missing = await parseJUnitFile(join(dir, 'nope.xml'), 'nope.xml');
    expect(missing.unreadable).toHaveLength(1);
  });

  it('aggregates files found by globs, skipping links out of the checkout', async () => {
    const dir = scratchDir('junit-');
    mkdirSync(join(dir, 'reports', 'more'), { recursive: true });
    writeFileSync(join(dir, 'reports', 'a.xml'), REALISTIC);
    writeFileSync(
      join(dir, 'reports', 'more', 'b.xml'),
      '<testsuite name="s"><testcase name="t" time="1"/></testsuite>',
    );
    writeFileSync(join(dir, 'reports', 'bad.xml'), 'not xml at all <');
    const outside = join(scratchDir('junit-out-'), 'x.xml');
    writeFileSync(outside, REALISTIC);
    symlinkSync(outside, join(dir, 'reports', 'link.xml'));
    const r = await collectTestReports(dir, ['reports/**/*.xml']);
    expect(r).toMatchObject({ suites: 3, tests: 7, failures: 1, errors: 1, skipped: 1, duration_s: 4.21 });
    expect(r!.files).toEqual(['reports/a.xml', 'reports/more/b.xml']);
    expect(r!.unreadable!.map((u) => u.file).sort()).toEqual(['reports/bad.xml', 'reports/link.xml']);
    expect(await collectTestReports(dir, ['nothing/*.xml'])).toBeUndefined();
    expect(await collectTestReports(dir, ['../*.xml'])).toBeUndefined();
  });

  it('aggregates reports of several jobs', () => {
    const a = parseJUnitXml(REALISTIC);
    const b = parseJUnitXml('<testsuite><testcase name="t" time="0.5"><failure/></testcase></testsuite>');
    expect(aggregateReports([a, b])).toMatchObject({
      suites: 3,
      tests: 7,
      failures: 2,
      errors: 1,
      skipped: 1,
      duration_s: 3.71,
    });
  });
});
