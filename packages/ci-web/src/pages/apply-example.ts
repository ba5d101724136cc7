// The bundle behind the Apply page's "Insert example" button, in a file of its own so the control plane's
// end-to-end test runs exactly this text with a real agent (a new user's first run must end green).
export const EXAMPLE = `project:
  slug: hello
  name: Hello
  description: A first project
pipelines:
  - name: build
    parameters:
      GREETING: hello
    stages: [build, test]
    jobs:
      compile:
        stage: build
        script:
          - echo "$GREETING from $CI_PIPELINE_NAME"
      unit:
        stage: test
        script:
          - echo "tests pass"
`;
