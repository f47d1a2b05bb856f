/** What the MQTT bridge takes from the environment (§12), parsed and checked without I/O. */
export interface MqttSettings {
  /** The broker, without credentials: `mqtt://host:1883` or `mqtts://host:8883`. */
  url: string;
  username: string | undefined;
  password: string | undefined;
  /** Every topic of the service starts with this (no leading or trailing slash). */
  prefix: string;
  /** Stable across restarts of one instance, so its persistent session (and what queued in it) is found again. */
  clientId: string;
  /** Whether Home Assistant discovery configs are published. */
  haDiscovery: boolean;
  /** Where Home Assistant looks for discovery configs. */
  discoveryPrefix: string;
  /** The operator's word that the broker authenticates devices and limits each to its own topics (§12 Trust). */
  trustBroker: boolean;
}

/** A bad MQTT_* value: which variable, and why. */
export class MqttSettingError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A topic prefix: one or more levels, none empty, no wildcards, not a `$` system topic, no NUL.
 * Returns the reason it is not one, or undefined.
 */
export function prefixProblem(prefix: string): string | undefined {
  if (prefix.startsWith('$')) return 'must not start with $ (reserved for the broker)';
  if (/[+#]/.test(prefix)) return 'must not contain the wildcards + or #';
  if (prefix.includes(String.fromCharCode(0))) return 'must not contain the NUL character';
  if (prefix.split('/').some((level) => level === '')) return 'must not start or end with / nor contain //';
  if (Buffer.byteLength(prefix) > 1000) return 'is too long';
  return undefined;
}

/** `mqtt://user:pass@host:port` → the broker URL and the credentials apart (percent-decoded). */
export function parseBrokerUrl(raw: string): Pick<MqttSettings, 'url' | 'username' | 'password'> {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new MqttSettingError('MQTT_URL', `expected mqtt://[user:password@]host[:port] or mqtts://…, got "${raw}"`);
  }
  if (parsed.protocol !== 'mqtt:' && parsed.protocol !== 'mqtts:') {
    throw new MqttSettingError('MQTT_URL', `expected the scheme mqtt:// or mqtts://, got "${parsed.protocol}//"`);
  }
  if (parsed.hostname === '') throw new MqttSettingError('MQTT_URL', 'has no host');
  if ((parsed.pathname !== '' && parsed.pathname !== '/') || parsed.search !== '' || parsed.hash !== '') {
    throw new MqttSettingError('MQTT_URL', 'takes no path, query or fragment: the topics come from MQTT_TOPIC_PREFIX');
  }
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new MqttSettingError('MQTT_URL', 'has credentials with a malformed %-escape');
    }
  };
  const username = parsed.username === '' ? undefined : decode(parsed.username);
  const password = parsed.password === '' ? undefined : decode(parsed.password);
  const port = parsed.port === '' ? (parsed.protocol === 'mqtts:' ? 8883 : 1883) : Number(parsed.port);
  return { url: `${parsed.protocol}//${parsed.host.replace(/:\d+$/, '')}:${port}`, username, password };
}

const CLIENT_ID = /^[\x21-\x7e]{1,128}$/;

export interface MqttEnvironment {
  MQTT_URL?: string;
  MQTT_TOPIC_PREFIX?: string;
  MQTT_CLIENT_ID?: string;
  MQTT_HA_DISCOVERY?: boolean;
  MQTT_HA_DISCOVERY_PREFIX?: string;
  MQTT_TRUST_BROKER?: boolean;
  /** Whether tokens are required over HTTP: then MQTT writes need MQTT_TRUST_BROKER. */
  AUTH_MODE?: 'open' | 'enforced';
}

/**
 * Whoever can publish to the broker writes measurements and reports pump runs without a token:
 * in enforced mode that is only acceptable once the operator says the broker is the boundary.
 */
const UNTRUSTED_BROKER =
  'MQTT_URL is set with AUTH_MODE=enforced, but MQTT writes carry no token: whoever can publish to the broker could write ' +
  'measurements and report pump runs. Give each device its own broker user and an ACL limiting it to its own topics, ' +
  'then set MQTT_TRUST_BROKER=true (or unset MQTT_URL, or use AUTH_MODE=open)';

/**
 * The bridge's settings, or undefined when `MQTT_URL` is unset (MQTT off). `defaultClientId` is
 * used when `MQTT_CLIENT_ID` is unset: it must be the same at every start of one instance.
 */
export function mqttSettings(env: MqttEnvironment, defaultClientId: string): MqttSettings | undefined {
  // Checked whether or not MQTT is on: a bad value is found before the day MQTT_URL is set.
  const prefix = env.MQTT_TOPIC_PREFIX ?? 'sensorhub';
  const problem = prefixProblem(prefix);
  if (problem) throw new MqttSettingError('MQTT_TOPIC_PREFIX', `"${prefix}" ${problem}`);
  const discoveryPrefix = env.MQTT_HA_DISCOVERY_PREFIX ?? 'homeassistant';
  const discoveryProblem = prefixProblem(discoveryPrefix);
  if (discoveryProblem) throw new MqttSettingError('MQTT_HA_DISCOVERY_PREFIX', `"${discoveryPrefix}" ${discoveryProblem}`);
  const clientId = env.MQTT_CLIENT_ID ?? defaultClientId.replace(/[^\x21-\x7e]/g, '_').slice(0, 128);
  if (!CLIENT_ID.test(clientId)) {
    throw new MqttSettingError('MQTT_CLIENT_ID', `expected 1 to 128 printable characters without spaces, got "${clientId}"`);
  }
  if (env.MQTT_URL === undefined) return undefined;
  const broker = parseBrokerUrl(env.MQTT_URL);
  const trustBroker = env.MQTT_TRUST_BROKER ?? false;
  if (env.AUTH_MODE === 'enforced' && !trustBroker) throw new MqttSettingError('MQTT_TRUST_BROKER', UNTRUSTED_BROKER);
  return { ...broker, prefix, clientId, haDiscovery: env.MQTT_HA_DISCOVERY ?? true, discoveryPrefix, trustBroker };
}
