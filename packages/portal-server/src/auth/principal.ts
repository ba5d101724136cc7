// Who is asking, in the one shape every layer uses: a signed-in person (`role`, `username`), or a service token
// acting as `{role: token.role, username: 'token:<name>'}` (the bot API, MCP). The guard makes it from the
// session, the bot from the token; execution, governance, the agent and storage read it as is.
import type { Role } from './session.js';

export interface Principal {
  role: Role;
  username: string;
}
