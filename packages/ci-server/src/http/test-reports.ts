// GET /api/v1/runs/{id}/tests: the run's unit-test results aggregated from the JUnit reports of its jobs
// (latest attempt of each job): totals, per job, per suite, and the cases — failures first, bounded.
import { notFound } from '@app/kit';
import { Type } from 'typebox';
import type { ExecutionData } from '../services/execution-data.js';
import type { Api } from './context.js';
import { errors, IdParams, Uuid } from './schemas.js';

const TOTALS = {
  tests: Type.Integer({ minimum: 0 }),
  passed: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  errors: Type.Integer({ minimum: 0 }),
  skipped: Type.Integer({ minimum: 0 }),
  duration_s: Type.Number({ minimum: 0 }),
};
const CaseStatus = Type.Enum(['passed', 'failed', 'error', 'skipped']);

export const RunTests = Type.Object({
  ...TOTALS,
  jobs: Type.Array(
    Type.Object({
      job_run_id: Uuid,
      job_name: Type.String(),
      attempt: Type.Integer({ minimum: 1 }),
      ...TOTALS,
      unreadable_files: Type.Array(Type.String(), { description: 'report files that could not be read' }),
    }),
  ),
  suites: Type.Array(Type.Object({ name: Type.String(), ...TOTALS })),
  cases: Type.Array(
    Type.Object({
      job_run_id: Uuid,
      job_name: Type.String(),
      suite: Type.String(),
      classname: Type.String(),
      name: Type.String(),
      status: CaseStatus,
      duration_s: Type.Number({ minimum: 0 }),
      message: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
    }),
    { description: 'failed and erroring cases first, then the others; at most `limit`' },
  ),
  cases_truncated: Type.Boolean({ description: 'more cases matched than are listed' }),
});

export function registerTestReportRoutes(api: Api, data: ExecutionData): void {
  api.get('/api/v1/runs/:id/tests', {
    config: { access: 'viewer' },
    schema: {
      tags: ['runs'],
      summary: "A run's unit-test results",
      description:
        "Aggregated from the JUnit XML files named by the jobs' `test_reports`, counting the latest attempt " +
        'of each job. Totals are complete; `cases` lists at most `limit` cases (default 1000), failures and ' +
        'errors first, optionally only those with `status`. A run without reports has zero totals.',
      params: IdParams,
      querystring: Type.Object(
        {
          limit: Type.Integer({ minimum: 0, maximum: 20_000, default: 1_000 }),
          status: Type.Optional(CaseStatus),
        },
        { additionalProperties: false },
      ),
      response: { 200: RunTests, ...errors(400, 404) },
    },
    handler: async (request) => {
      const runId = request.params.id.toLowerCase();
      const report = await data.reports.runTestReport(runId, request.query);
      if (!report) throw notFound(`run ${runId} does not exist`);
      return report;
    },
  });
}
