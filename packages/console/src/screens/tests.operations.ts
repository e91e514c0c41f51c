import { graphql, withFragments } from "../api/graphql.ts";

export const TestScenarioFields = graphql(`
  fragment ConsoleTestScenarioFields on TestScenario {
    id assistantId name channel script persona goal variables turnLimit criteria checks toolResults
    useRealTools expectedReplies sourceCallId sourceConversationId updatedAt
  }
`);

export const TestResultFields = graphql(`
  fragment ConsoleTestResultFields on TestScenarioResult {
    id scenarioId scenarioName position status endedBy turnLatencies cost error functionCalls callId
    transcript { role content latencyMs }
    checks { kind description passed detail }
    judge { criterion passed reasoning }
    divergences { turn expected actual }
  }
`);

export const TestRunFields = withFragments(
  graphql(`
    fragment ConsoleTestRunFields on TestRun {
      id suiteId status concurrency total done passed failed errored cost error createdAt startedAt finishedAt
      results { ...ConsoleTestResultFields }
    }
  `),
  TestResultFields,
);

export const TestsScreenQuery = withFragments(
  graphql(`
    query ConsoleTestsScreen($assistantId: Int!) {
      assistant(id: $assistantId) { id name }
      testScenarios(assistantId: $assistantId) { ...ConsoleTestScenarioFields }
      testSuites { id name scenarioIds updatedAt }
    }
  `),
  TestScenarioFields,
);

export const TestScenarioQuery = withFragments(
  graphql(`
    query ConsoleTestScenario($id: Int!) {
      testScenario(id: $id) { ...ConsoleTestScenarioFields }
    }
  `),
  TestScenarioFields,
);

export const CreateTestScenarioMutation = graphql(`
  mutation ConsoleCreateTestScenario($input: CreateTestScenarioInput!) {
    createTestScenario(input: $input) { id }
  }
`);

export const UpdateTestScenarioMutation = graphql(`
  mutation ConsoleUpdateTestScenario($id: Int!, $input: UpdateTestScenarioInput!) {
    updateTestScenario(id: $id, input: $input) { id }
  }
`);

export const DeleteTestScenarioMutation = graphql(`
  mutation ConsoleDeleteTestScenario($id: Int!) {
    deleteTestScenario(id: $id)
  }
`);

export const CreateTestSuiteMutation = graphql(`
  mutation ConsoleCreateTestSuite($input: TestSuiteInput!) {
    createTestSuite(input: $input) { id }
  }
`);

export const UpdateTestSuiteMutation = graphql(`
  mutation ConsoleUpdateTestSuite($id: Int!, $input: TestSuiteInput!) {
    updateTestSuite(id: $id, input: $input) { id }
  }
`);

export const DeleteTestSuiteMutation = graphql(`
  mutation ConsoleDeleteTestSuite($id: Int!) {
    deleteTestSuite(id: $id)
  }
`);

export const TestSuiteEstimateQuery = graphql(`
  query ConsoleTestSuiteEstimate($suiteId: Int!) {
    testSuiteEstimate(suiteId: $suiteId) { scenarios replies modelRequests price }
  }
`);

export const TestRunsQuery = graphql(`
  query ConsoleTestRuns($suiteId: Int!) {
    testRuns(suiteId: $suiteId, limit: 20) { id status total done passed failed errored cost createdAt }
  }
`);

export const RunTestSuiteMutation = graphql(`
  mutation ConsoleRunTestSuite($suiteId: Int!, $concurrency: Int) {
    runTestSuite(suiteId: $suiteId, concurrency: $concurrency) { id }
  }
`);

export const TestRunSubscription = withFragments(
  graphql(`
    subscription ConsoleTestRunUpdated($id: Int!) {
      testRunUpdated(id: $id, includeCurrent: true) { ...ConsoleTestRunFields }
    }
  `),
  TestRunFields,
);

export const CompareTestRunsQuery = withFragments(
  graphql(`
    query ConsoleCompareTestRuns($a: Int!, $b: Int!) {
      compareTestRuns(a: $a, b: $b) {
        unchanged
        before { id status passed failed errored total createdAt }
        after { id status passed failed errored total createdAt }
        changed {
          scenarioId scenarioName
          before { ...ConsoleTestResultFields }
          after { ...ConsoleTestResultFields }
        }
      }
    }
  `),
  TestResultFields,
);
