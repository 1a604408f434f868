"""The chart's `helm test`: deploys a word count through the router's REST API and checks every key's count.

The generator is deterministic: of COUNT events over KEYS keys, key-k receives COUNT // KEYS events, plus one for
k < COUNT % KEYS. The sink keeps each key's latest count, so when every task has FINISHED its results must be exactly
that. Exits non-zero, saying what differed, otherwise. Standard library only.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

ROUTER = os.environ["ROUTER_URL"].rstrip("/")
COUNT = int(os.environ["COUNT"])
KEYS = int(os.environ["KEYS"])
MIN_HOSTS = int(os.environ.get("MIN_HOSTS", "1"))
DEADLINE = time.monotonic() + int(os.environ["TIMEOUT_SECONDS"])
TOPOLOGY = "helm-test-%d" % int(time.time())


def call(method, path, body=None):
    """The status and decoded JSON body (or text) of one request; (0, error) when the router does not answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(ROUTER + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    except OSError as e:
        return 0, str(e)
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text


def until(what, attempt, interval=2.0):
    """Calls attempt() until it returns a value other than None; fails the test at the deadline."""
    last = None
    while time.monotonic() < DEADLINE:
        value, last = attempt()
        if value is not None:
            return value
        time.sleep(interval)
    sys.exit("FAILED: timed out waiting for %s; last answer: %s" % (what, last))


def live_hosts():
    status, body = call("GET", "/api/v1/hosts")
    live = [h for h in body if h.get("status") == "LIVE" and h.get("kind", "PE") == "PE"] \
        if status == 200 and isinstance(body, list) else []
    return (live if len(live) >= MIN_HOSTS else None), (status, body)


def deploy():
    spec = {"id": TOPOLOGY, "operators": [
        {"id": "source", "type": "generator", "parallelism": 2,
         "config": {"count": COUNT, "keys": KEYS, "ratePerSecond": 0}},
        {"id": "count", "type": "keyed-count", "parallelism": 2,
         "inputs": [{"from": "source", "partitioning": "key"}]},
        {"id": "sink", "type": "latest-value-sink", "parallelism": 1,
         "inputs": [{"from": "count", "partitioning": "key"}]}]}
    status, body = call("POST", "/api/v1/topologies", spec)
    if status == 409 and call("GET", "/api/v1/topologies/" + TOPOLOGY)[0] == 200:
        return True, (status, body)  # an earlier attempt that timed out deployed it
    if 400 <= status < 500 and status not in (404, 409):
        sys.exit("FAILED: the router refused the topology with %d: %s" % (status, body))
    return (True if status in (200, 201) else None), (status, body)


def finished():
    status, body = call("GET", "/api/v1/topologies/" + TOPOLOGY)
    if status == 200 and body.get("status") == "FAILED":
        sys.exit("FAILED: topology %s FAILED: %s" % (TOPOLOGY, json.dumps(body.get("tasks"))))
    return (body if status == 200 and body.get("status") == "FINISHED" else None), (status, body)


def main():
    print("router %s; waiting for live hosts" % ROUTER, flush=True)
    hosts = until("%d LIVE hosts" % MIN_HOSTS, live_hosts)
    print("LIVE: %s" % ", ".join(h.get("hostId", "?") for h in hosts), flush=True)
    until("the router to accept topology " + TOPOLOGY, deploy)
    print("deployed %s: %d events over %d keys" % (TOPOLOGY, COUNT, KEYS), flush=True)
    try:
        until("every task of %s to finish" % TOPOLOGY, finished)
        status, results = call("GET", "/api/v1/topologies/%s/results/sink?limit=%d" % (TOPOLOGY, KEYS + 1))
        if status != 200:
            sys.exit("FAILED: results answered %d: %s" % (status, results))
        actual = {key: int(value) for key, value in results["values"].items()}
        expected = {"key-%d" % k: COUNT // KEYS + (1 if k < COUNT % KEYS else 0) for k in range(KEYS)}
        wrong = sorted(k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k))
        if wrong:
            sys.exit("FAILED: %d of %d keys differ, e.g. %s" % (len(wrong), KEYS, ", ".join(
                "%s expected %s was %s" % (k, expected.get(k), actual.get(k)) for k in wrong[:10])))
        print("OK: all %d keys counted exactly (%d events)" % (KEYS, sum(actual.values())), flush=True)
    finally:
        call("DELETE", "/api/v1/topologies/" + TOPOLOGY)


if __name__ == "__main__":
    main()
