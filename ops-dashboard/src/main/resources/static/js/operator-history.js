// Events/s and latency of every operator over the last minutes, recorded from each live overview whatever view is
// open.

const KEEP_MILLIS = 5 * 60 * 1000;

/** "topology/operator" -> [[time millis, events/s], ...], oldest first. */
const throughput = new Map();
/**
 * "topology/operator" -> [[time millis, mean latency in ms or null], ...], oldest first: the time a record spent in
 * the operator plus the time its output then waited in frames to leave; null (a gap in the chart) while the operator
 * took nothing in.
 */
const latency = new Map();
/** "topology/operator" -> [[time millis, mean output wait in ms or null], ...]; null for a sink. */
const outputWait = new Map();

export function recordOverview(overview) {
  const at = Date.parse(overview.fetchedAt) || Date.now();
  const seen = new Set();
  for (const topology of overview.topologies || []) {
    for (const operator of topology.operators || []) {
      const key = topology.id + '/' + operator.operator;
      seen.add(key);
      append(throughput, key, [at, Number(operator.eventsPerSecond) || 0]);
      const inOperator = numberOrNull(operator.latencyMillis);
      const waited = numberOrNull(operator.outputWaitMillis);
      append(latency, key, [at, inOperator === null ? null : inOperator + (waited || 0)]);
      append(outputWait, key, [at, waited]);
    }
  }
  for (const series of [throughput, latency, outputWait]) {
    prune(series, at, seen, overview.routerReachable);
  }
}

function numberOrNull(value) {
  return value === null || value === undefined ? null : Number(value);
}

function append(series, key, point) {
  let points = series.get(key);
  if (!points) {
    points = [];
    series.set(key, points);
  }
  points.push(point);
}

function prune(series, at, seen, routerReachable) {
  const cutoff = at - KEEP_MILLIS;
  for (const [key, points] of series) {
    let drop = 0;
    while (drop < points.length && points[drop][0] < cutoff) {
      drop++;
    }
    if (drop > 0) {
      points.splice(0, drop);
    }
    // Forget cancelled topologies once their points are old; keep them through a router outage.
    if (points.length === 0 || (routerReachable && !seen.has(key) && points[points.length - 1][0] < cutoff)) {
      series.delete(key);
    }
  }
}

export function throughputSeries() {
  return throughput;
}

export function latencySeries() {
  return latency;
}

export function outputWaitSeries() {
  return outputWait;
}

export const HISTORY_MINUTES = KEEP_MILLIS / 60000;
