import { Type } from '@sinclair/typebox';

/** POST /admin/clock/advance (decisions §11): how far to run exchange time. */
export const AdvanceClockBody = Type.Object(
  {
    seconds: Type.Optional(Type.Number({ minimum: 0, description: 'Exchange seconds to run from now (at most a year)' })),
    until: Type.Optional(Type.Integer({ description: 'Exchange time to run to, unix ms (now or later)' })),
  },
  { additionalProperties: false },
);

const Processed = Type.Object({
  participantOrders: Type.Integer({ description: 'Orders the simulated participants sent' }),
  scenarioEvents: Type.Integer({ description: 'Scenario events applied' }),
  tapeEvents: Type.Integer({ description: 'Recorded upstream events replayed' }),
  expiries: Type.Integer({ description: 'GTD orders that expired' }),
});

export const AdvanceClockResponse = Type.Object({ now: Type.Integer({ description: 'Exchange time after the advance, unix ms' }), processed: Processed });

export const ClockStatusResponse = Type.Object({
  mode: Type.Union([Type.Literal('real'), Type.Literal('fast'), Type.Literal('stepped')]),
  now: Type.Integer({ description: 'Exchange time, unix ms' }),
  startedAt: Type.Integer({ description: 'Exchange time at the start of the run, unix ms' }),
  runDir: Type.Optional(Type.String({ description: "Directory of the run's report and trade export (fast and stepped runs)" })),
});
