import type { Counter, Histogram, Meter, ObservableGauge } from '@opentelemetry/api';
import {
  DURATION_BUCKETS,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
  METRIC_MCP42_SERVER_LISTEN_STREAMS,
  METRIC_MCP42_SERVER_OUTBOX_OVERFLOWS,
  METRIC_MCP42_SERVER_REFUSALS,
  METRIC_MCP42_SERVER_SESSIONS,
  METRIC_MCP42_SERVER_STATE_AVAILABLE,
} from './semconv.js';

/** The instruments one server records with. A meter hands the same instrument to every server asking for a name. */
export interface McpInstruments {
  readonly operationDuration: Histogram;
  readonly sessionDuration: Histogram;
  readonly sessions: ObservableGauge;
  readonly listenStreams: ObservableGauge;
  readonly stateAvailable: ObservableGauge;
  readonly outboxOverflows: Counter;
  readonly refusals: Counter;
}

export function createInstruments(meter: Meter): McpInstruments {
  const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
  return {
    operationDuration: meter.createHistogram(METRIC_MCP_SERVER_OPERATION_DURATION, {
      description: 'The duration of the MCP request or notification as observed on the receiver',
      unit: 's',
      advice,
    }),
    sessionDuration: meter.createHistogram(METRIC_MCP_SERVER_SESSION_DURATION, {
      description: 'The duration of the MCP session as observed on the MCP server',
      unit: 's',
      advice,
    }),
    sessions: meter.createObservableGauge(METRIC_MCP42_SERVER_SESSIONS, {
      description: 'Live 2025 sessions held by this instance',
      unit: '{session}',
    }),
    listenStreams: meter.createObservableGauge(METRIC_MCP42_SERVER_LISTEN_STREAMS, {
      description: 'Open 2026-07-28 subscriptions/listen streams',
      unit: '{stream}',
    }),
    stateAvailable: meter.createObservableGauge(METRIC_MCP42_SERVER_STATE_AVAILABLE, {
      description: 'Whether the shared state (Redis) answers: 1 when it does, 0 when it does not',
      unit: '1',
    }),
    outboxOverflows: meter.createCounter(METRIC_MCP42_SERVER_OUTBOX_OVERFLOWS, {
      description:
        'Sessions ended because more waited for their client than limits.outboxMessages or limits.outboxChars allow, ' +
        'or their share of limits.bufferedChars was the last to give up',
      unit: '{session}',
    }),
    refusals: meter.createCounter(METRIC_MCP42_SERVER_REFUSALS, {
      description: 'Requests refused before any handler ran, by cause (mcp42.refusal.cause)',
      unit: '{request}',
    }),
  };
}
