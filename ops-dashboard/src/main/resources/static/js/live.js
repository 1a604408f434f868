// The live overview: server-sent events from /api/v1/events, or polling /api/v1/overview every 2 s when the
// stream does not work. Listeners get each overview and each change of transport or failure.

const EVENTS_URL = '/api/v1/events';
const OVERVIEW_URL = '/api/v1/overview';
const POLL_INTERVAL_MS = 2000;
const SSE_FIRST_EVENT_TIMEOUT_MS = 5000;

/**
 * @param {object} handlers onOverview(overview), onTransport(text), onFailure(error or null)
 */
export function startLiveOverview(handlers) {
  let polling = false;

  function deliver(overview) {
    handlers.onFailure(null);
    handlers.onOverview(overview);
  }

  function connect() {
    if (!('EventSource' in window)) {
      startPolling('this browser has no EventSource');
      return;
    }
    const source = new EventSource(EVENTS_URL);
    let received = false;
    const firstEventTimer = setTimeout(() => {
      if (!received) {
        source.close();
        startPolling('no event within ' + SSE_FIRST_EVENT_TIMEOUT_MS / 1000 + ' s');
      }
    }, SSE_FIRST_EVENT_TIMEOUT_MS);

    source.addEventListener('overview', (event) => {
      received = true;
      clearTimeout(firstEventTimer);
      handlers.onTransport('live stream');
      let overview;
      try {
        overview = JSON.parse(event.data);
      } catch (error) {
        handlers.onFailure(new Error('an overview event was not JSON: ' + error.message));
        return;
      }
      deliver(overview);
    });
    source.addEventListener('error', () => {
      // EventSource reconnects by itself after a dropped stream (readyState CONNECTING); only a stream it gave
      // up on (CLOSED: e.g. a non-200 answer) or one that never delivered means SSE does not work here.
      if (source.readyState === EventSource.CLOSED || !received) {
        clearTimeout(firstEventTimer);
        source.close();
        startPolling('the event stream failed');
      } else {
        handlers.onTransport('live stream, reconnecting…');
      }
    });
  }

  function startPolling(reason) {
    if (polling) {
      return;
    }
    polling = true;
    handlers.onTransport('polling every ' + POLL_INTERVAL_MS / 1000 + ' s: ' + reason);
    const poll = async () => {
      try {
        const response = await fetch(OVERVIEW_URL, { headers: { Accept: 'application/json' }, cache: 'no-store' });
        if (!response.ok) {
          throw new Error('GET ' + OVERVIEW_URL + ' answered HTTP ' + response.status);
        }
        deliver(await response.json());
      } catch (error) {
        handlers.onFailure(error instanceof Error ? error : new Error(String(error)));
      } finally {
        setTimeout(poll, POLL_INTERVAL_MS);
      }
    };
    poll();
  }

  connect();
}
