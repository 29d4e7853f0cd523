#!/usr/bin/env node
// A Node.js backend that publishes a Notify event over the HTTP ingest API (docs/openapi.yaml).
// No dependencies: Node 20+'s fetch. Against `ops/notifyctl dev` as is:
//
//   node examples/node-publisher/publish.mjs --user 42 --text "your order shipped"
//
// Endpoints and the key come from the environment, defaulting to notifyctl dev's:
//   NOTIFY_INGEST_URL  http://localhost:8080
//   NOTIFY_API_KEY     dev-producer-key-change-me (a producer key of notify.ingest.api-keys)
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';

const INGEST = process.env.NOTIFY_INGEST_URL || 'http://localhost:8080';
const API_KEY = process.env.NOTIFY_API_KEY || 'dev-producer-key-change-me';

const { values: args } = parseArgs({
  options: {
    user: { type: 'string', multiple: true, default: ['42'] },
    type: { type: 'string', default: 'demo.hello' },
    text: { type: 'string', default: 'hello from node-publisher' },
    id: { type: 'string' },
    ephemeral: { type: 'boolean', default: false },
  },
});

// The id is the idempotency key: sending the same event again (a retry after a timeout) is
// answered `"duplicate": true` and delivered once. Derive it from your own data where you can.
const event = {
  id: args.id || `node-publisher-${randomUUID()}`,
  type: args.type,
  to: { users: args.user },
  data: { text: args.text },
  ...(args.ephemeral ? { class: 'ephemeral' } : {}),
};

/** One POST /v1/events; 503 (Kafka did not acknowledge) is retried after its Retry-After, a few times. */
async function publish(body, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${INGEST}/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await res.json().catch(() => ({}));
    if (res.status === 202) return answer;
    if (res.status === 503 && attempt < attempts) {
      const seconds = Number(res.headers.get('Retry-After')) || 1;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    // problem+json: 400 names the bad field, 401 a wrong key, 409 the same id with another body
    throw new Error(`ingest answered ${res.status}: ${answer.detail || answer.title || JSON.stringify(answer)}`);
  }
}

try {
  const answer = await publish(event);
  console.log(`accepted ${answer.id} (${answer.topic}/${answer.partition}@${answer.offset}${answer.duplicate ? ', duplicate' : ''})`);
} catch (e) {
  console.error(`node-publisher: ${e.cause ? `${INGEST} unreachable (${e.cause.code || e.cause.message}); is ops/notifyctl dev running?` : e.message}`);
  process.exitCode = 1;
}
