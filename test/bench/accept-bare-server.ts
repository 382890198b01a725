// The floor for accept-cost.ts: a bare `http.createServer` listening as the apiserver does (Go's backlog, Go's
// keep-alive timeout) and answering every request at once: /readyz 200 (so startServerProcess sees it ready), anything
// else (the storm) the apiserver's 429 (same status line, headers and body, PF header values as constants). Takes the apiserver's
// command line and reads only --port. Run by accept-cost.ts; alone: `node dist/test/bench/accept-bare-server.js --port N`.
import { createServer } from 'node:http';
import { TOO_MANY_REQUESTS_BODY } from '../../lib/server/filters/too-many-requests';

const portFlag = process.argv.indexOf('--port');
const port = Number(process.argv[portFlag + 1]);
const UID = '00000000-0000-0000-0000-000000000000';

const server = createServer((req, res) => {
  // The exempt probes of apf-probe.ts (its /readyz, and its LIST with the system:masters token of the benches' token
  // files): 200 at once, as the apiserver's exempt level would serve them.
  if (req.url === '/readyz' || req.headers.authorization === 'Bearer admin-token') {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('ok');
    return;
  }
  res.setHeader('Audit-Id', UID);
  res.setHeader('X-Orch-PF-FlowSchema-UID', UID);
  res.setHeader('X-Orch-PF-PriorityLevel-UID', UID);
  res.setHeader('X-Kubernetes-PF-FlowSchema-UID', UID);
  res.setHeader('X-Kubernetes-PF-PriorityLevel-UID', UID);
  res.setHeader('Retry-After', '1');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.writeHead(429);
  res.end(TOO_MANY_REQUESTS_BODY);
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', 4096);
process.on('SIGTERM', () => process.exit(0));
