import { connect, type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { type Backoff, BROKER_BACKOFF, backoffDelay } from './backoff.js';
import type { MqttSettings } from './settings.js';

/** The link to the broker as `/healthz` shows it. */
export const LINK_STATES = ['connecting', 'connected', 'disconnected'] as const;
export type LinkState = (typeof LINK_STATES)[number];

/** A week: what a device publishes while the service is down that long still waits for it. */
export const SESSION_EXPIRY_SECONDS = 7 * 24 * 3600;

export interface LinkLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface LinkDeps {
  settings: Pick<MqttSettings, 'url' | 'username' | 'password' | 'clientId'>;
  log: LinkLog;
  /**
   * Handles one received message; the broker is told it was received (PUBACK) only once this
   * resolves, so what it does must be committed by then. A rejection leaves it unacknowledged
   * (the link is closing): the broker delivers it again in this session's next connection.
   */
  receive(topic: string, payload: Buffer, packet: IPublishPacket): Promise<void>;
  /** Every (re)connection: subscribe, then publish what subscribers should know. */
  connected(session: { resumed: boolean; reconnect: boolean }): void;
  reconnected?(): void;
  backoff?: Backoff;
  random?: () => number;
}

/**
 * One MQTT 5 connection to the broker in a persistent session (clean start off, a session
 * expiry), reconnecting with backoff for as long as the service runs. Received QoS 1 messages are
 * acknowledged by hand, after `receive` resolves (MQTT.js's `customHandleAcks`): the client hands
 * over the next message only once the previous one is acknowledged, so acknowledgements leave in
 * the order the messages came, as MQTT requires.
 */
export function brokerLink(deps: LinkDeps) {
  const { settings, log, backoff = BROKER_BACKOFF, random = Math.random } = deps;
  let state: LinkState = 'connecting';
  let failures = 0;
  let everConnected = false;
  let closing = false;
  /** The message being handled, so a close can let it finish. */
  let current: Promise<unknown> = Promise.resolve();

  const options: IClientOptions = {
    protocolVersion: 5,
    clientId: settings.clientId,
    clean: false,
    properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS },
    username: settings.username,
    password: settings.password,
    reconnectPeriod: backoff.minMs,
    // A broker that refuses the connection for a while (overloaded, restarting) is tried again too.
    reconnectOnConnackError: true,
    connectTimeout: 10_000,
    keepalive: 30,
    // Subscriptions are made at every connection (see `connected`), whether the session was kept or not.
    resubscribe: false,
    // While the link is down nothing is queued: publications are state, sent afresh on reconnection.
    queueQoSZero: false,
    customHandleAcks: (topic, payload, packet: IPublishPacket, ack) => {
      const handled = deps.receive(topic, payload, packet);
      current = handled.catch(() => undefined);
      handled.then(
        () => ack(0),
        () => {
          // Closing: not acknowledged, so delivered again next time.
        },
      );
    },
  };
  const client: MqttClient = connect(settings.url, options);

  client.on('message', (topic, payload, packet) => {
    // QoS 1 messages arrive through customHandleAcks; a QoS 0 one (nothing to acknowledge) comes only here.
    if (packet.qos === 0) current = deps.receive(topic, payload, packet).catch(() => undefined);
  });
  client.on('connect', (connack) => {
    state = 'connected';
    failures = 0;
    client.options.reconnectPeriod = backoff.minMs;
    const reconnect = everConnected;
    everConnected = true;
    log.info({ broker: settings.url, clientId: settings.clientId, sessionPresent: connack.sessionPresent }, 'MQTT connected');
    if (reconnect) deps.reconnected?.();
    deps.connected({ resumed: connack.sessionPresent, reconnect });
  });
  client.on('reconnect', () => {
    state = 'connecting';
    failures += 1;
    // Read by MQTT.js when it schedules the next attempt, should this one fail.
    client.options.reconnectPeriod = backoffDelay(backoff, failures, random());
  });
  client.on('close', () => {
    if (state === 'connected' && !closing) log.warn({ broker: settings.url }, 'MQTT link lost; reconnecting');
    state = 'disconnected';
  });
  client.on('error', (error) => {
    // While the broker stays away the same failure repeats at every attempt: told at the first
    // attempts, then every tenth.
    if (!closing && (failures <= 2 || failures % 10 === 0))
      log.warn({ err: error, broker: settings.url, attempts: failures }, 'MQTT link error');
  });

  return {
    state: (): LinkState => state,
    connected: () => client.connected,

    /** Publishes when the link is up; otherwise nothing is sent (and false is answered). */
    publish(topic: string, payload: string, qos: 0 | 1, retain: boolean): boolean {
      if (!client.connected || closing) return false;
      client.publish(topic, payload, { qos, retain }, (error) => {
        if (error && !closing) log.warn({ err: error, topic }, 'MQTT publish failed');
      });
      return true;
    },

    async subscribe(filters: string[]): Promise<void> {
      await client.subscribeAsync(filters, { qos: 1 });
    },

    /**
     * Lets the message in hand finish (its commit and acknowledgement), then disconnects: the
     * session stays on the broker, which keeps what arrives meanwhile for the next start.
     */
    async close(): Promise<void> {
      closing = true;
      client.options.reconnectPeriod = 0;
      await Promise.race([current, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => client.end(true, {}, () => resolve()), 2000).unref();
        client.end(false, {}, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

export type BrokerLink = ReturnType<typeof brokerLink>;
