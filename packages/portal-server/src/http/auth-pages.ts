// The pages where sign-in starts and lands, all served by the web app's index.html (src/http/web.ts):
// `/login` is open (the app shows the form, the second-factor field, the SSO button and `?error=` messages),
// `/` and `/admin` need a session (the guard has already redirected anonymous requests to /login; the check
// here repeats it because the guard is not the boundary), and `/admin` sends a user to `/`.
import type { FastifyInstance } from 'fastify';
import { readSession } from './guard.js';
import { sendSpaIndex } from './web.js';

export async function registerAuthPages(app: FastifyInstance): Promise<void> {
  app.get('/login', async (_request, reply) => sendSpaIndex(reply));

  app.get('/', async (request, reply) => {
    const session = await readSession(request);
    if (!session) return reply.redirect('/login', 302);
    return sendSpaIndex(reply);
  });

  app.get('/admin', async (request, reply) => {
    const session = await readSession(request);
    if (!session) return reply.redirect('/login', 302);
    if (session.role !== 'admin') return reply.redirect('/', 302);
    return sendSpaIndex(reply);
  });
}
