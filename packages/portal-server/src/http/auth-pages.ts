// The pages where sign-in starts and lands, all served by the web app's index.html (src/http/web.ts):
// `/login` is open (the app shows the form, the second-factor field, the SSO button and `?error=` messages),
// `/` and `/admin` need a session (the guard has already redirected anonymous requests to /login; the check
// here repeats it because the guard is not the boundary), and `/admin` sends a user to `/`.
import type { FastifyInstance } from 'fastify';
import { readSession } from './guard.js';
import { HtmlPage, Redirect } from './response-schemas.js';
import { sendSpaIndex } from './web.js';

const page = (description: string) => ({
  schema: { tags: ['pages'], description, response: { 200: HtmlPage, 302: Redirect } },
});

export async function registerAuthPages(app: FastifyInstance): Promise<void> {
  app.get('/login', page('The sign-in page (open).'), async (_request, reply) => sendSpaIndex(reply));

  app.get('/', page('The IDE; 302 to /login without a session.'), async (request, reply) => {
    const session = await readSession(request);
    if (!session) return reply.redirect('/login', 302);
    return sendSpaIndex(reply);
  });

  const admin = page(
    'The administration pages; 302 to /login without a session, to / for a non-administrator.',
  );
  app.get('/admin', admin, async (request, reply) => {
    const session = await readSession(request);
    if (!session) return reply.redirect('/login', 302);
    if (session.role !== 'admin') return reply.redirect('/', 302);
    return sendSpaIndex(reply);
  });
}
