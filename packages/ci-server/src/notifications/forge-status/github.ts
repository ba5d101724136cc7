// GitHub commit statuses (github.com and GitHub Enterprise Server, whose API root is `<host>/api/v3`):
// `POST /repos/{owner}/{repo}/statuses/{sha}` with `{state, target_url, description, context}`, where state is
// pending, success, failure or error; `Authorization: Bearer <token>` (a fine-grained token with "Commit
// statuses: write", a classic token with `repo:status`, or an installation token), answered 201.
import { type StatusInput, type StatusRequest, segments, USER_AGENT } from './request.js';

/** GitHub refuses descriptions longer than 140 characters (422). */
const DESCRIPTION_MAX = 140;

export function githubStatusRequest(input: StatusInput): StatusRequest {
  return {
    url: `${input.apiUrl}/repos/${segments(input.repository)}/statuses/${input.sha}`,
    headers: {
      authorization: `Bearer ${input.token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
    },
    body: JSON.stringify({
      state: input.state,
      target_url: input.targetUrl,
      description: input.description.slice(0, DESCRIPTION_MAX),
      context: input.context,
    }),
  };
}
