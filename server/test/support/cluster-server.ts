/** `npm start`'s process model (server/serve.ts) without Next: for the cluster and shutdown tests. */
import { loadEnv } from '../../env';
import { serve } from '../../serve';

await serve(loadEnv(), { listening: (port) => console.log(`LISTENING ${port}`) });
