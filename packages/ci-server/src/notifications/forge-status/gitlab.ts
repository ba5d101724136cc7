// GitLab commit statuses (gitlab.com and self-managed, API root `<host>/api/v4`):
// `POST /projects/{id}/statuses/{sha}` where the id is the URL-encoded project path (`group%2Fsub%2Fproject`),
// with `{state, target_url, description, name}`, state pending, running, success, failed or canceled;
// header `PRIVATE-TOKEN` (a personal, group or project access token with the `api` scope), answered 201.
import { type StatusInput, type StatusRequest, USER_AGENT } from './request.js';

/** GitLab keeps at most 255 characters of a description. */
const DESCRIPTION_MAX = 255;

export function gitlabStatusRequest(input: StatusInput): StatusRequest {
  return {
    url: `${input.apiUrl}/projects/${encodeURIComponent(input.repository)}/statuses/${input.sha}`,
    headers: {
      'private-token': input.token,
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
    },
    body: JSON.stringify({
      state: input.state,
      target_url: input.targetUrl,
      description: input.description.slice(0, DESCRIPTION_MAX),
      name: input.context,
    }),
  };
}
