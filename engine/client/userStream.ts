import type { UserEvent } from '../protocol/streamEvents.js';
import { StreamSocket, type StreamSocketOptions } from './streamSocket.js';

export interface UserStreamOptions extends StreamSocketOptions {
  creds: { key: string; secret: string; passphrase: string };
  /** Condition ids; empty = every market of the key's owner. */
  markets?: string[];
}

/**
 * The user channel: the key owner's `order` and `trade` events. Its seq counts per connection, so a gap
 * means a lost frame: the stream reconnects, and a consumer refetches its orders and trades on
 * `reconnects` growing (the channel has no replay).
 */
export class UserStream extends StreamSocket<UserEvent> {
  private seq = 0;

  constructor(private readonly options: UserStreamOptions) {
    super(options);
    this.start();
  }

  protected onOpen(): void {
    this.seq = 0;
    const { key, secret, passphrase } = this.options.creds;
    this.send({ auth: { apiKey: key, secret, passphrase }, markets: this.options.markets ?? [], type: 'user' });
  }

  protected onEvent(e: UserEvent): void {
    if (e.event_type !== 'error') {
      if (e.seq !== this.seq + 1) {
        this.reconnect();
        return;
      }
      this.seq = e.seq;
    }
    this.emit(e);
  }
}
