import type { MarketChannel, MarketSubscriber } from './marketChannel.js';
import { idList, StreamConnection, type StreamLimits, type StreamTransport } from './streamTransport.js';

/**
 * One market-channel socket: the public subscribe message (`assets_ids`, `type`, `initial_dump`,
 * `level`, `custom_feature_enabled`), `operation: subscribe|unsubscribe`, `resume_from`, text PING.
 */
export class MarketConnection extends StreamConnection implements MarketSubscriber {
  custom = false;
  readonly assets = new Set<string>();

  constructor(
    transport: StreamTransport,
    limits: StreamLimits,
    private readonly channel: MarketChannel,
    private readonly release: (c: MarketConnection) => void,
  ) {
    super(transport, limits);
  }

  onClosed(): void {
    this.channel.dropSubscriber(this, this.assets);
    this.assets.clear();
    this.release(this);
  }

  onMessage(text: string): void {
    // Events already committed go out before anything this message causes (a PONG included).
    this.channel.flush();
    if (this.pong(text)) return;
    const msg = this.parse(text);
    if (!msg) return;
    const listed = idList(msg.assets_ids ?? msg.asset_ids, 'assets_ids');
    if (typeof listed === 'string') return this.sendError(listed);
    // Each distinct asset gets one book or replay: one 64 KiB message repeating an id must not multiply into hundreds of books.
    const ids = [...new Set(listed)];
    const op = msg.operation;
    if (op !== undefined && op !== 'subscribe' && op !== 'unsubscribe') {
      return this.sendError(`'operation' must be "subscribe" or "unsubscribe"; got ${JSON.stringify(op).slice(0, 40)}`);
    }
    if (op === undefined && (typeof msg.type !== 'string' || msg.type.toLowerCase() !== 'market')) {
      return this.sendError('the subscribe message needs "type":"market" (any case) and "assets_ids":["<token id>", ...]');
    }
    if (op === 'unsubscribe') {
      for (const id of ids) {
        this.channel.unsubscribe(id, this);
        this.assets.delete(id);
      }
      return;
    }
    if (typeof msg.custom_feature_enabled === 'boolean') this.custom = msg.custom_feature_enabled;
    const resume = msg.resume_from;
    if (resume !== undefined && (typeof resume !== 'object' || resume === null || Array.isArray(resume))) {
      return this.sendError("'resume_from' must be an object {\"<asset id>\": <last seq seen>}");
    }
    const fresh = ids.filter((id) => !this.assets.has(id));
    if (this.assets.size + fresh.length > this.limits.maxSubscriptions) {
      return this.sendError(`at most ${this.limits.maxSubscriptions} assets per connection (this one follows ${this.assets.size}, asked for ${fresh.length} more); open another connection`);
    }
    // Every listed id counts (a repeated or already followed one too).
    if (listed.length > this.limits.maxSubscriptions) {
      return this.sendError(`at most ${this.limits.maxSubscriptions} asset ids per message (got ${listed.length}); list each asset once`);
    }
    const unknown: string[] = [];
    const initialDump = msg.initial_dump !== false;
    for (const id of ids) {
      // The socket closed under this message (e.g. it stopped reading): build nothing more for it.
      if (this.closed) return;
      const from = (resume as Record<string, unknown> | undefined)?.[id];
      const ok = this.channel.subscribe(id, this, { initialDump, resumeFrom: typeof from === 'number' ? from : undefined });
      if (ok) this.assets.add(id);
      else unknown.push(id);
    }
    if (unknown.length > 0) this.sendError(`unknown asset ids (not subscribed): ${unknown.slice(0, 10).join(', ')}; list token ids with GET /markets`);
  }
}
