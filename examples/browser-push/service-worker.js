// The service worker of examples/browser-push: shows each Web Push of Notify (docs/push.md) as a
// notification and opens the app at the event when it is clicked. Registered by index.html from
// this path (/service-worker.js), so its scope is the whole origin.
//
// A push's decrypted body is the event, as the inbox lists it:
//   {"stream","epoch","seq","id","type","class","data","occurredAt"}
// (or without `data` and with "truncated": true when it was too large: the app reads it from the
// inbox). `data.title` (a string) makes it a visible notification, `data.body` its text.

self.addEventListener('install', () => self.skipWaiting()); // the newest worker takes over at once
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim())); // and controls open pages

self.addEventListener('push', (event) => {
  event.waitUntil(show(readEvent(event.data)));
});

/** The event a push carries, or null when it has none or it is not JSON. */
function readEvent(data) {
  if (!data) return null;
  try {
    const e = data.json();
    return e && typeof e === 'object' ? e : null;
  } catch {
    return null;
  }
}

/**
 * Shows the event. Subscribed with userVisibleOnly (as browsers require), every push must show a
 * notification, so one without a title (a data-only event, or a truncated one) shows its type.
 * `tag` is the event id: a push repeated by the sender (at least once per device) replaces the
 * notification showing it instead of adding a second one.
 */
function show(e) {
  if (!e) return self.registration.showNotification('New notification', { body: 'Open the app to see it.' });
  const d = e.data && typeof e.data === 'object' ? e.data : {};
  const title = typeof d.title === 'string' ? d.title : e.truncated ? 'New notification' : String(e.type || 'New notification');
  const options = {
    body: typeof d.body === 'string' ? d.body : e.truncated ? 'Open the app to see it.' : '',
    tag: typeof e.id === 'string' ? e.id : undefined,
    data: e, // the event: notificationclick opens the app at it
  };
  const at = Date.parse(e.occurredAt);
  if (Number.isFinite(at)) options.timestamp = at;
  return self.registration.showNotification(title, options);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const e = event.notification.data || {};
  const url = new URL('./', self.registration.scope); // the app
  if (typeof e.stream === 'string') url.searchParams.set('stream', e.stream);
  if (e.seq != null) url.searchParams.set('seq', String(e.seq));
  event.waitUntil(openApp(url.href));
});

/** Focuses a window of the app and points it at `href`, or opens one there. */
async function openApp(href) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (!open) return self.clients.openWindow(href);
  const focused = (await open.focus()) || open;
  try {
    if (typeof focused.navigate === 'function') return await focused.navigate(href); // a page this worker controls
  } catch {
    // not controlled by this worker (opened before it was active): tell the page instead
  }
  focused.postMessage({ type: 'notify.open', href });
  return focused;
}

// The browser replaced the subscription (its push service rotated it): the open pages register the
// new one (index.html calls client.push.register() on every start, too: registering is idempotent).
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(self.clients.matchAll({ type: 'window' })
    .then((windows) => windows.forEach((w) => w.postMessage({ type: 'notify.resubscribe' }))));
});
