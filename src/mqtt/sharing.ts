// The shape of the bridge's subscriptions, apart from the bridge so that what names them (the
// tests, /healthz) does not load the MQTT client with it.

/** Messages of one topic filter are shared among the instances subscribed in this group: each is stored once. */
export const SHARE_GROUP = 'sensorhub';

/**
 * Connections each instance takes messages on, in the same shared subscription (the broker deals
 * the messages out among them); each has several messages in hand at once (see `RECEIVE_MAXIMUM`),
 * whose commits the group commit joins. Fewer would carry as much, but the number must not
 * shrink: the broker keeps dealing messages to the persistent session of a connection that is
 * gone until that session expires, so the messages of dropped connections would wait for days.
 */
export const INGEST_LINKS = 32;

/** The link to the broker as `/healthz` shows it. */
export const LINK_STATES = ['connecting', 'connected', 'disconnected'] as const;
export type LinkState = (typeof LINK_STATES)[number];
