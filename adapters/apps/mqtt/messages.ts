import { type IPublishPacket, type Packet, type PacketCallback, Store } from 'mqtt';
import { jsonOrText, type Store as StepStore } from '../sdk/index.js';

/** What a flow reads of an MQTT message: the trigger's output. */
export interface MessageData {
  readonly topic: string;
  /** The JSON value when the payload is JSON text, else the text (UTF-8). */
  readonly payload: unknown;
  readonly qos: number;
  /** A retained message: the broker's last message on the topic, sent when subscribing. */
  readonly retain: boolean;
  /** The broker says it may have sent this message before. */
  readonly dup: boolean;
  /** MQTT 5 properties the publisher set, when it set any. */
  readonly properties?: Readonly<Record<string, unknown>>;
}

const propertiesOf = (packet: IPublishPacket): Record<string, unknown> | undefined => {
  const p = packet.properties;
  if (!p) return undefined;
  const picked = {
    ...(p.contentType !== undefined && { contentType: p.contentType }),
    ...(p.responseTopic !== undefined && { responseTopic: p.responseTopic }),
    ...(p.correlationData !== undefined && { correlationData: Buffer.from(p.correlationData).toString('utf8') }),
    ...(p.messageExpiryInterval !== undefined && { messageExpiryInterval: p.messageExpiryInterval }),
    ...(p.payloadFormatIndicator !== undefined && { payloadFormatIndicator: p.payloadFormatIndicator }),
    ...(p.userProperties !== undefined && { userProperties: p.userProperties }),
  };
  return Object.keys(picked).length > 0 ? picked : undefined;
};

export const messageData = (packet: IPublishPacket): MessageData => {
  const properties = propertiesOf(packet);
  return {
    topic: packet.topic,
    payload: jsonOrText(Buffer.from(packet.payload).toString('utf8')),
    qos: packet.qos,
    retain: packet.retain,
    dup: packet.dup,
    ...(properties && { properties }),
  };
};

/** A packet given back by the durable store below: its data as first received, and whether an earlier listener held it. */
export type StoredPacket = IPublishPacket & {
  readonly stored: { readonly data: MessageData; readonly earlier: boolean };
};

export const isStoredPacket = (packet: IPublishPacket): packet is StoredPacket => 'stored' in packet;

interface Pending {
  readonly messageId: number;
  readonly data: MessageData;
}

const PENDING_KEY = 'mqtt:qos2';

/**
 * Where the client keeps QoS 2 messages between PUBREC and PUBREL: the flow's durable store, not
 * memory. The broker hands a QoS 2 message over once (we answer PUBREC), then only repeats the
 * PUBREL until we answer PUBCOMP, which we do once the run is accepted. A message whose run was
 * not accepted must survive a reconnection (and a crash) for the PUBREL to find it again; the
 * library's memory store would answer PUBCOMP for a message it no longer has, and lose it.
 */
export class DurableIncomingStore extends Store {
  private writes: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly store: StepStore,
    private readonly pending: Map<number, Pending & { readonly earlier: boolean }>,
    /** Called when the store cannot be written: the listener then fails before acknowledging anything. */
    private readonly onFailure: (error: Error) => void,
  ) {
    super();
  }

  static async open(store: StepStore, onFailure: (error: Error) => void): Promise<DurableIncomingStore> {
    const saved = await store.get(PENDING_KEY);
    const pending = Array.isArray(saved) ? (saved as Pending[]) : [];
    return new DurableIncomingStore(
      store,
      new Map(pending.map((p) => [p.messageId, { ...p, earlier: true }])),
      onFailure,
    );
  }

  private save(): Promise<void> {
    const snapshot = [...this.pending.values()].map(({ messageId, data }) => ({ messageId, data }));
    const write = this.writes.then(() => this.store.set(PENDING_KEY, snapshot));
    this.writes = write.catch(() => {});
    return write;
  }

  /** Forgets every held message: the broker did not resume the session, so it will send no PUBREL for them. */
  async clear(): Promise<void> {
    if (this.pending.size === 0) return;
    this.pending.clear();
    await this.save();
  }

  override put(packet: Packet, cb: (error?: Error) => void): this {
    const publish = packet as IPublishPacket;
    if (publish.messageId === undefined) {
      cb();
      return this;
    }
    this.pending.set(publish.messageId, { messageId: publish.messageId, data: messageData(publish), earlier: false });
    // PUBREC goes out only once the message is stored: the callback is not called otherwise.
    this.save().then(
      () => cb(),
      (error: unknown) => this.onFailure(error instanceof Error ? error : new Error(String(error))),
    );
    return this;
  }

  override get(packet: Pick<Packet, 'messageId'>, cb: PacketCallback): this {
    const held = packet.messageId === undefined ? undefined : this.pending.get(packet.messageId);
    if (!held) {
      cb(new Error('missing packet'));
      return this;
    }
    const stored: StoredPacket = {
      cmd: 'publish',
      messageId: held.messageId,
      qos: 2,
      dup: held.earlier || held.data.dup,
      retain: held.data.retain,
      topic: held.data.topic,
      payload: Buffer.alloc(0),
      stored: { data: held.data, earlier: held.earlier },
    };
    cb(undefined, stored);
    return this;
  }

  override del(packet: Pick<Packet, 'messageId'>, cb: PacketCallback): this {
    const held = packet.messageId === undefined ? undefined : this.pending.get(packet.messageId);
    if (packet.messageId !== undefined) this.pending.delete(packet.messageId);
    if (!held) {
      cb(new Error('missing packet'));
      return this;
    }
    this.save().then(
      () => cb(undefined, packet as Packet),
      () => cb(undefined, packet as Packet),
    );
    return this;
  }

  override close(cb: (error?: Error) => void): void {
    cb();
  }
}
