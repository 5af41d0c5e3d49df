/** What the dispatcher's tests share: a stage workflow that takes the dispatch's inputs, and a pipeline file mapping two stages to it. */

/** A stage workflow as the dispatcher needs it: on workflow_dispatch, with issue-number, stage and claim declared. */
export const STAGE_WORKFLOW = `name: Stage
on:
  workflow_dispatch:
    inputs:
      issue-number:
        required: true
      stage:
        required: true
      claim:
        required: true
jobs:
  run:
    runs-on: ubuntu-latest
    steps:
      - run: echo stage
`;

/** INVESTIGATOR and BUILDER mapped to workflows, REVIEWER run by nobody's workflow; three attempts, a two-hour claim. */
export const DISPATCH_FILE = `chain:
  - { type: INVESTIGATOR, workflow: investigate.yml }
  - { type: BUILDER, workflow: build.yml }
  - REVIEWER
attempts: 3
claim-ttl: 2h
`;
