import { runServer } from './processes.js';

/** `npm start`: the HTTP server and the engine's worker in one process. */
await runServer();
