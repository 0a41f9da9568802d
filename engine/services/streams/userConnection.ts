import type { Identity } from '../auth/authService.js';
import { CLOSE, idList, StreamConnection, type StreamLimits, type StreamTransport } from './streamTransport.js';
import type { UserChannel, UserSubscriber } from './userChannel.js';

/**
 * One user-channel socket: the first message carries the L2 credentials (`auth`: apiKey, secret,
 * passphrase) and an optional `markets` filter; later ones `operation: subscribe|unsubscribe`.
 */
export class UserConnection extends StreamConnection implements UserSubscriber {
  address = '';
  apiKey = '';
  /** Markets subscribed by name; with `everyMarket`, the markets unsubscribed since. */
  private readonly markets = new Set<string>();
  private readonly excluded = new Set<string>();
  /** Only an empty or missing `markets` at subscribe means every market; an unsubscribe never does. */
  private everyMarket = false;
  seq = 0;
  private authed = false;

  /** True once the first message's credentials were accepted. */
  get authenticated(): boolean {
    return this.authed;
  }

  constructor(
    transport: StreamTransport,
    limits: StreamLimits,
    private readonly channel: UserChannel,
    private readonly verify: (apiKey: string, secret: string, passphrase: string) => Identity,
    private readonly release: (c: UserConnection) => void,
  ) {
    super(transport, limits);
  }

  onClosed(): void {
    this.channel.remove(this);
    this.release(this);
  }

  onMessage(text: string): void {
    if (this.pong(text)) return;
    const msg = this.parse(text);
    if (!msg) {
      if (!this.authed) this.close(CLOSE.authRequired, 'the first message must be {"auth":{"apiKey","secret","passphrase"},"type":"user"}');
      return;
    }
    const markets = idList(msg.markets, 'markets');
    if (typeof markets === 'string') return this.sendError(markets);
    if (!this.authed) {
      const auth = msg.auth as Record<string, unknown> | undefined;
      if (typeof auth !== 'object' || auth === null || typeof auth.apiKey !== 'string' || typeof auth.secret !== 'string' || typeof auth.passphrase !== 'string') {
        return this.close(CLOSE.authRequired, 'the first message must carry "auth":{"apiKey","secret","passphrase"} (the L2 credentials)');
      }
      try {
        const id = this.verify(auth.apiKey, auth.secret, auth.passphrase);
        this.address = id.address.toLowerCase();
        this.apiKey = id.apiKey;
      } catch (e) {
        return this.close(CLOSE.authFailed, ((e as Error).message || 'authentication failed').slice(0, 120));
      }
      this.authed = true;
      this.channel.add(this);
    }
    if (markets.length + this.markets.size > this.limits.maxSubscriptions) return this.sendError(`at most ${this.limits.maxSubscriptions} markets per connection`);
    const remove = msg.operation === 'unsubscribe';
    if (!remove && markets.length === 0) {
      this.everyMarket = true;
      this.excluded.clear();
    }
    for (const m of markets) {
      const id = m.toLowerCase();
      if (remove) {
        this.markets.delete(id);
        if (this.everyMarket) this.excluded.add(id);
      } else {
        this.markets.add(id);
        this.excluded.delete(id);
      }
    }
  }

  follows(conditionId: string): boolean {
    return this.everyMarket ? !this.excluded.has(conditionId) : this.markets.has(conditionId);
  }
}
