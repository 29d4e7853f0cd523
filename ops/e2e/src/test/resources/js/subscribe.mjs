// A Node.js subscriber on the packed @notify/client (ClientPackageIT installs the tarball next to
// it): prints one line per state and per event. NOTIFY_GATEWAYS (comma-separated) and NOTIFY_TOKEN.
// Node 22+ as is; Node 20 with --experimental-websocket. Positions: the default (memory in Node).
import { connect } from '@notify/client';

const client = connect({
  gateways: process.env.NOTIFY_GATEWAYS.split(','),
  token: process.env.NOTIFY_TOKEN,
  onState: (state, info) => console.log(`state ${state}${state === 'connected' ? ` ${info.nodeId} ${info.transport}` : ''}`),
  onEvent: (e) => console.log(`event ${e.id} ${e.stream} ${e.seq} ${JSON.stringify(e.data)}`),
  onError: (e) => console.log(`error ${e.message}`),
});
process.on('SIGTERM', () => { client.close(); process.exit(0); });
