/** `npm start`'s process model (server/serve.ts) without Next, printing the metrics port too: for the metrics tests. */
import { loadEnv } from '../../env';
import { serve } from '../../serve';

await serve(loadEnv(), {
  listening: (port, metricsPort) => process.stdout.write(`METRICS ${metricsPort}\nLISTENING ${port}\n`),
});
