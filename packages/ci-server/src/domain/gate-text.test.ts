// interpolateParams: the gate description's parameter references, as a table.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { describe, expect, it } from 'vitest';
import { interpolateParams } from './gate-text.js';

describe('interpolateParams', () => {
  const params = { TARGET: 'production', EMPTY: '' };
  const cases: [string, string][] = [
    ['Deploy ${{ TARGET }}?', 'Deploy production?'],
    ['Deploy ${{params.TARGET}}?', 'Deploy production?'],
    ['[${{ EMPTY }}]', '[]'],
    ['${{ UNKNOWN }} stays', '${{ UNKNOWN }} stays'],
    ["${TARGET} is the shell's", "${TARGET} is the shell's"],
    ['${{ toString }} is not a parameter', '${{ toString }} is not a parameter'],
  ];
  it.each(cases)('%s', (text, want) => expect(interpolateParams(text, params)).toBe(want));
});
