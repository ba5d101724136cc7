/**
 * Test data: the pipeline document example of spec/pipeline-yaml.md, verbatim, and a bundle around it.
 * Shared by the parser, schema and raw-slice tests.
 */

export const SPEC_PIPELINE_EXAMPLE = `name: build-and-test            # unique in the project
materials:                      # zero or more; what feeds and triggers the pipeline
  - git:
      url: https://git.example.com/org/shop.git   # any URL git can clone, file:// included
      branch: main
      on: [push, pull_request, tag]               # webhook events that trigger (default [push])
      poll_interval: 5m                           # optional polling when no webhook arrives
  - upstream:
      pipeline: build-core      # another pipeline of the same project
      stage: test               # fires when this stage of it finishes with \`status\`
      status: success
  - cron:
      expression: "0 3 * * *"   # 5-field cron, or @hourly/@daily/...
parameters:                     # named inputs with defaults; trigger \`parameters\` override them
  TARGET: staging
variables:                      # environment for every job
  NODE_ENV: test
stages: [build, test, deploy]   # ordered; a stage starts when the previous one succeeded
services:                       # long-running helpers started for each job that lists them
  - name: cache
    command: [redis-server, --port, "6399"]
    ready: { tcp: 6399, timeout: 30s }   # or { http: "http://127.0.0.1:6399/", ... } or { command: [...] }
jobs:
  compile:
    stage: build
    script:                     # shell lines, run in order with \`bash -eo pipefail\`, in the checkout
      - npm ci
      - npm run build
    needs: []                   # jobs of this or an earlier stage that must succeed first
    variables: { KEY: value }
    secrets: [NPM_TOKEN]        # project secret, else global secret; exported as env, masked in logs
    services: [cache]
    artifacts:
      paths: [dist/]
      when: on_success          # on_success | on_failure | always
      expire_in: 7d
    cache:
      - key: npm-{{ hash "package-lock.json" }}
        paths: [node_modules/]
    test_reports: [reports/*.xml]   # JUnit XML
    matrix:                     # one job run per combination; values exported as env
      NODE: ["20", "22"]
    timeout: 30m                # the job is failed and its processes killed past it
    retry: 1                    # automatic re-runs of a failed attempt
    tags: [linux]               # only agents having all these tags take it
  release-gate:
    stage: deploy
    approval:                   # a manual gate: no script; the job waits in awaiting_approval
      description: Ship to production?
      required: 1               # distinct approvers needed
      timeout: 72h              # an unanswered gate cancels the run
`;

/** The example as the second pipeline of a JSON-variant bundle, indented under `pipelines:`. */
export const SPEC_BUNDLE_EXAMPLE = `project:
  slug: shop            # [a-z0-9][a-z0-9-]{0,62}; the project's address
  name: Shop            # display name
  description: optional
pipelines:
  - name: build-core
    stages: [test]
    jobs:
      unit: { stage: test, script: [npm test] }
${SPEC_PIPELINE_EXAMPLE.trimEnd()
  .split('\n')
  .map((line, i) => (i === 0 ? `  - ${line}` : line === '' ? '' : `    ${line}`))
  .join('\n')}
`;
