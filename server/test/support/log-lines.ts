/**
 * Writes LINES log lines through the app's logger (a `req` with credentials on the first), then ends as
 * EXIT says: `exit` calls process.exit at once, `natural` lets the event loop run dry.
 */
import { createLogger } from '../../logger';

const logger = createLogger('info');
const lines = Number(process.env.LINES ?? 3);
logger.info(
  {
    req: {
      method: 'GET',
      url: '/x',
      headers: { authorization: 'Bearer secret-key', cookie: 'session=secret', host: 'a' },
    },
  },
  'with credentials',
);
for (let i = 1; i < lines; i++) logger.info({ i }, 'line');
if (process.env.EXIT === 'exit') process.exit(0);
