var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// dist/domain/schema-common.js
import { Type } from "@sinclair/typebox";
function StringEnum(values, description) {
  return Type.Unsafe({ type: "string", enum: [...values], description });
}
function errorResponses(...statuses) {
  const out = {};
  for (const status of statuses)
    out[status] = status === 422 ? Type.Ref(ValidationErrorBody) : Type.Ref(ErrorBody);
  return out;
}
var MAX_ID, Id, DateTimeInput, DateTimeOutput, ErrorBody, ValidationErrorBody, RemovalRefusedBody, Message, CascadeQuery, Deleted;
var init_schema_common = __esm({
  "dist/domain/schema-common.js"() {
    "use strict";
    MAX_ID = 2 ** 31 - 1;
    Id = (description) => Type.Integer({ minimum: 0, maximum: MAX_ID, description });
    DateTimeInput = (description) => Type.String({
      format: "date-time",
      description: [description, "Within the years 1 to 9999 (UTC)."].filter(Boolean).join(" "),
      examples: ["2026-11-22T09:30:00.123Z"]
    });
    DateTimeOutput = (description) => Type.String({ format: "date-time", description, examples: ["2026-11-22T09:30:00.123Z"] });
    ErrorBody = Type.Object({ detail: Type.String({ description: "What went wrong, for a person to read." }) }, { $id: "ErrorBody", title: "Error" });
    ValidationErrorBody = Type.Object({
      detail: Type.Array(Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
          description: 'Where the problem is: "body", "query" or "path", then the field path.'
        }),
        msg: Type.String(),
        type: Type.String()
      }))
    }, { $id: "ValidationErrorBody", title: "HTTPValidationError" });
    RemovalRefusedBody = Type.Object({
      detail: Type.String({ description: "What is below and how to delete it anyway, for a person to read." }),
      dependents: Type.Object({
        sensors: Type.Integer({ minimum: 0, description: "Sensors of the prototype; 0 when a sensor is deleted." }),
        actuators: Type.Integer({ minimum: 0, description: "Actuators driven by those sensors (or by the sensor)." }),
        measurements: Type.Integer({ minimum: 0, description: "Measurements of those sensors (or of the sensor)." }),
        notes: Type.Integer({ minimum: 0, description: "Notes of the prototype\u2019s journal; 0 when a sensor is deleted." })
      }, { description: "What is still below, counted: what ?cascade=true would delete with it." })
    }, { $id: "RemovalRefusedBody", title: "RemovalRefused" });
    Message = Type.Object({ message: Type.String() });
    CascadeQuery = Type.Object({
      cascade: Type.Boolean({
        default: false,
        description: "Also delete everything below (sensors, actuators, measurements; a prototype\u2019s notes), in the same transaction. Without it, 409 while anything is below."
      })
    });
    Deleted = { description: "Deleted. No body.", type: "null" };
  }
});

// dist/core/dose-view.js
var doseView;
var init_dose_view = __esm({
  "dist/core/dose-view.js"() {
    "use strict";
    doseView = (dose) => ({
      activation_id: dose.activation_id,
      actuator_id: dose.actuator_id,
      activated_at: new Date(dose.activated_at).toISOString(),
      duration: dose.duration,
      value_before: dose.value_before,
      answered: dose.answered,
      volume_ml: dose.volume_ml ?? null
    });
  }
});

// dist/domain/instants.js
var EARLIEST_INSTANT, LATEST_INSTANT, LONGEST_DURATION, isWithinYears;
var init_instants = __esm({
  "dist/domain/instants.js"() {
    "use strict";
    EARLIEST_INSTANT = Date.parse("0001-01-01T00:00:00.000Z");
    LATEST_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");
    LONGEST_DURATION = LATEST_INSTANT - EARLIEST_INSTANT;
    isWithinYears = (ms) => ms >= EARLIEST_INSTANT && ms <= LATEST_INSTANT;
  }
});

// dist/domain/date-time.js
function isDateTime(text2) {
  return DATE_TIME.test(text2) && Number.isFinite(parseDateTime(text2));
}
function parseDateTime(text2) {
  if (!DATE_TIME.test(text2))
    return NaN;
  let iso3 = text2.trim().replace(" ", "T");
  if (!/(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/.test(iso3))
    iso3 += "Z";
  iso3 = iso3.replace(/([+-]\d{2})$/, "$1:00").replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  const [date] = iso3.split("T");
  const [y, m, d] = date.split("-").map(Number);
  const ms = Date.parse(iso3);
  const check = /* @__PURE__ */ new Date(0);
  check.setUTCFullYear(y, m - 1, d);
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d)
    return NaN;
  return isWithinYears(ms) ? ms : NaN;
}
function isoOf(ms) {
  if (ms === lastMs)
    return lastIso;
  lastMs = ms;
  if (!(ms >= FOUR_DIGIT_YEARS[0] && ms < FOUR_DIGIT_YEARS[1]) || !Number.isInteger(ms)) {
    lastIso = new Date(ms).toISOString();
    return lastIso;
  }
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDay = day;
    dayText = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 36e5);
  rest -= hours * 36e5;
  const minutes = Math.floor(rest / 6e4);
  rest -= minutes * 6e4;
  const seconds2 = Math.floor(rest / 1e3);
  lastIso = `${dayText}${two(hours)}:${two(minutes)}:${two(seconds2)}.${three(rest - seconds2 * 1e3)}Z`;
  return lastIso;
}
var DATE_TIME, DAY_MS, FOUR_DIGIT_YEARS, two, three, lastMs, lastIso, lastDay, dayText;
var init_date_time = __esm({
  "dist/domain/date-time.js"() {
    "use strict";
    init_instants();
    DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
    DAY_MS = 864e5;
    FOUR_DIGIT_YEARS = [-621672192e5, 2534023008e5];
    two = (n) => n < 10 ? `0${n}` : `${n}`;
    three = (n) => n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`;
    lastMs = Number.NaN;
    lastIso = "";
    lastDay = Number.NaN;
    dayText = "";
  }
});

// dist/core/json-text.js
function measurementArrayJson(rows) {
  let text2 = "[";
  for (let i = 0; i < rows.length; i++)
    text2 += (i === 0 ? "" : ",") + measurementJson(rows[i]);
  return Buffer.from(`${text2}]`);
}
async function* jsonArray(pages) {
  let separator = "[";
  for await (const page of pages) {
    let text2 = "";
    for (const m of page) {
      text2 += separator + measurementJson(m);
      separator = ",";
    }
    yield text2;
  }
  yield separator === "[" ? "[]" : "]";
}
function sendJsonText(reply, body) {
  return reply.type(JSON_TYPE).send(body);
}
var measurementJson, activationJson, JSON_TYPE;
var init_json_text = __esm({
  "dist/core/json-text.js"() {
    "use strict";
    init_date_time();
    measurementJson = (m) => `{"measurement_id":${m.measurement_id},"sensor_id":${m.sensor_id},"value":${m.value},"timestamp":"${isoOf(m.timestamp)}"}`;
    activationJson = (a) => `{"activate":${a.activate},"status":${JSON.stringify(a.status)},"reason":${JSON.stringify(a.reason)},"duration":${a.duration},"period":${a.period}}`;
    JSON_TYPE = "application/json; charset=utf-8";
  }
});

// dist/domain/note.js
import { Type as Type5 } from "@sinclair/typebox";
var NOTE_TEXT_MAX, MAX_NOTE_TAGS, NOTE_TAG_MAX, Text, Tags, At, NoteBody, NotePatch, Note, noteView, NoteIdParams;
var init_note = __esm({
  "dist/domain/note.js"() {
    "use strict";
    init_schema_common();
    NOTE_TEXT_MAX = 2e3;
    MAX_NOTE_TAGS = 8;
    NOTE_TAG_MAX = 32;
    Text = Type5.String({ minLength: 1, maxLength: NOTE_TEXT_MAX, description: `1 to ${NOTE_TEXT_MAX} characters, not all blank.` });
    Tags = Type5.Array(Type5.String({ minLength: 1, maxLength: NOTE_TAG_MAX }), {
      maxItems: MAX_NOTE_TAGS,
      description: `Up to ${MAX_NOTE_TAGS} tags of 1 to ${NOTE_TAG_MAX} characters; spaces around a tag are dropped, and a repeated tag is kept once.`
    });
    At = DateTimeInput("What the note is about happened then; default now. At most 5 minutes in the future.");
    NoteBody = Type5.Object({ text: Text, at: Type5.Optional(At), tags: Type5.Optional(Tags) }, { title: "NoteBody" });
    NotePatch = Type5.Object({ text: Type5.Optional(Text), at: Type5.Optional(At), tags: Type5.Optional(Tags) }, { title: "NotePatch", description: "Any of text, at and tags; the others keep their value. tags replaces the whole list." });
    Note = Type5.Object({
      note_id: Id("Assigned by the service."),
      prototype_id: Id(),
      at: DateTimeOutput(),
      text: Type5.String(),
      tags: Type5.Array(Type5.String()),
      author: Type5.Union([Type5.String(), Type5.Null()], { description: "The user who wrote it; null in open mode." })
    }, { title: "Note" });
    noteView = (stored) => ({ ...stored, at: new Date(stored.at).toISOString() });
    NoteIdParams = Type5.Object({ note_id: Id() });
  }
});

// dist/events/relay-codec.js
function idRanges(ids) {
  const sorted = [...ids].sort((a, b) => a - b);
  const ranges = [];
  for (const id of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && id <= last[1] + 1)
      last[1] = Math.max(last[1], id);
    else
      ranges.push([id, id]);
  }
  return ranges;
}
function chunks(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size)
    out.push(items.slice(i, i + size));
  return out;
}
function recordsOf(topic, change) {
  if (topic === "measurements") {
    const { rows } = change;
    return chunks(idRanges(rows.map((r) => r.measurement_id)), RANGES_PER_RECORD).map((ranges) => ({ topic: "measurements", ranges }));
  }
  if (topic === "note") {
    const note = change;
    if (note.action !== "deleted")
      return [{ topic: "noteRef", action: note.action, noteId: note.note.note_id }];
  }
  if (topic === "generated") {
    const generated = change;
    return chunks(generated.sensorIds, SENSORS_PER_RECORD).map((sensorIds) => ({
      topic: "generated",
      change: { ...generated, sensorIds }
    }));
  }
  return [{ topic, change }];
}
function packPayloads(origin, records) {
  const head = `{"origin":${JSON.stringify(origin)},"records":[`;
  const payloads = [];
  let body = [];
  let size = head.length + 2;
  for (const record of records) {
    const text2 = JSON.stringify(record);
    const bytes = Buffer.byteLength(text2);
    if (body.length > 0 && size + bytes + 1 > MAX_PAYLOAD_BYTES) {
      payloads.push(`${head}${body.join(",")}]}`);
      body = [];
      size = head.length + 2;
    }
    body.push(text2);
    size += bytes + 1;
  }
  if (body.length > 0)
    payloads.push(`${head}${body.join(",")}]}`);
  return payloads;
}
function parsePayload(payload) {
  try {
    const parsed = JSON.parse(payload);
    return typeof parsed.origin === "string" && Array.isArray(parsed.records) ? parsed : void 0;
  } catch {
    return void 0;
  }
}
var MAX_PAYLOAD_BYTES, RANGES_PER_RECORD, SENSORS_PER_RECORD;
var init_relay_codec = __esm({
  "dist/events/relay-codec.js"() {
    "use strict";
    MAX_PAYLOAD_BYTES = 7900;
    RANGES_PER_RECORD = 300;
    SENSORS_PER_RECORD = 500;
  }
});

// dist/events/postgres-relay.js
function isRelayed(change) {
  return relayedChanges.has(change);
}
function postgresRelay({ channel, store, bus, instance, log, onGap }) {
  let pending = [];
  let sending;
  let replaying = false;
  let stopListening;
  let stopped = false;
  let applying = Promise.resolve();
  const unsubscribe = [];
  async function send3() {
    while (pending.length > 0) {
      const records = pending;
      pending = [];
      for (const payload of packPayloads(instance, records)) {
        try {
          await channel.publish(payload);
        } catch (error) {
          log.warn({ err: error }, "could not relay committed changes to the other instances");
        }
      }
    }
    sending = void 0;
  }
  function relay(topic, change) {
    if (replaying || stopped)
      return;
    pending.push(...recordsOf(topic, change));
    sending ??= new Promise((resolve4) => setImmediate(resolve4)).then(send3);
  }
  function publish(topic, change) {
    relayedChanges.add(change);
    replaying = true;
    try {
      bus.publish(topic, change);
    } finally {
      replaying = false;
    }
  }
  async function apply2({ records }) {
    for (const record of records) {
      if (record.topic === "measurements") {
        const rows = await store.measurements.byIdRanges(record.ranges);
        if (rows.length > 0)
          publish("measurements", { rows });
      } else if (record.topic === "noteRef") {
        const note = await store.notes.get(record.noteId);
        if (note)
          publish("note", { action: record.action, note: noteView(note) });
      } else {
        publish(record.topic, record.change);
      }
    }
  }
  function received(payload) {
    const notification = parsePayload(payload);
    if (!notification || notification.origin === instance)
      return;
    applying = applying.then(() => apply2(notification)).catch((error) => log.warn({ err: error }, "could not apply changes relayed from another instance"));
  }
  return {
    async start() {
      for (const topic of RELAYED)
        unsubscribe.push(bus.subscribe(topic, (change) => relay(topic, change)));
      stopListening = await channel.listen({
        message: received,
        failed: (error) => log.warn({ err: error }, "the connection listening for other instances\u2019 changes failed"),
        retryFailed: (error) => log.warn({ err: error }, "could not listen for other instances\u2019 changes; trying again"),
        restored: () => {
          log.info({}, "listening for other instances\u2019 changes again");
          onGap();
        }
      });
    },
    async stop() {
      stopped = true;
      for (const stop of unsubscribe)
        stop();
      await sending;
      await stopListening?.();
    }
  };
}
var RELAYED, relayedChanges;
var init_postgres_relay = __esm({
  "dist/events/postgres-relay.js"() {
    "use strict";
    init_note();
    init_relay_codec();
    RELAYED = [
      "measurements",
      "measurementDeleted",
      "generated",
      "prototype",
      "sensor",
      "actuator",
      "dose",
      "controller",
      "alert",
      "note",
      "tokensRevoked"
    ];
    relayedChanges = /* @__PURE__ */ new WeakSet();
  }
});

// dist/domain/measurement.js
import { Type as Type6 } from "@sinclair/typebox";
var MAX_DEVIATION_RATE, MAX_BATCH, MAX_POINTS, MeasurementBase, MeasurementBody, Measurement, SensorIdParams, MeasurementIdParams, windowFields, WindowQuery, ExportQuery, ratio, RandomMeasurements, RandomResult;
var init_measurement = __esm({
  "dist/domain/measurement.js"() {
    "use strict";
    init_schema_common();
    MAX_DEVIATION_RATE = 100;
    MAX_BATCH = 1e4;
    MAX_POINTS = 1e5;
    MeasurementBase = Type6.Object({
      sensor_id: Id("The sensor; a numeric string is accepted."),
      value: Type6.Number({ description: "Finite; stored as a double, not rounded." }),
      timestamp: Type6.Optional(DateTimeInput("When it was measured; default the time of receipt. Without an offset it is UTC. At most 5 minutes in the future."))
    }, { title: "MeasurementBase" });
    MeasurementBody = Type6.Union([MeasurementBase, Type6.Array(MeasurementBase, { minItems: 1, maxItems: MAX_BATCH })], {
      description: `One measurement, or an array of 1..${MAX_BATCH} (all or nothing).`
    });
    Measurement = Type6.Object({
      measurement_id: Type6.Integer(),
      sensor_id: Type6.Integer(),
      value: Type6.Number(),
      timestamp: DateTimeOutput()
    }, { title: "Measurement" });
    SensorIdParams = Type6.Object({ sensor_id: Id() });
    MeasurementIdParams = Type6.Object({ measurement_id: Id() });
    windowFields = {
      start_time: Type6.Optional(DateTimeInput("Inclusive start of the window.")),
      end_time: Type6.Optional(DateTimeInput("Exclusive end of the window."))
    };
    WindowQuery = Type6.Object({
      time_delta: Type6.Optional(Type6.String({
        description: "Duration: ISO 8601 (P7D, PT2H30M), the Python forms (07d,00:00:00, 1 day, 02:00:00, 02:00:00, 1d) or seconds (3600). Alone: [now - time_delta, now]; with end_time: [end_time - time_delta, end_time). Not with start_time. At most the span of the years 1 to 9999, and the window must start in the year 1 or later (422 otherwise).",
        examples: ["P7D"]
      })),
      ...windowFields,
      max_points: Type6.Optional(Type6.Integer({
        minimum: 2,
        maximum: MAX_POINTS,
        description: `At most this many points (2 to ${MAX_POINTS.toLocaleString("en")}), keeping each time bucket\u2019s minimum and maximum.`
      }))
    });
    ExportQuery = Type6.Object({
      sensor_id: Type6.Optional(Type6.Array(Id(), { description: "Only these sensors (repeatable)." })),
      prototype_id: Type6.Optional(Id("Only the sensors of this prototype.")),
      ...windowFields
    });
    ratio = (def, description) => Type6.Number({ minimum: 0, maximum: 1, default: def, description });
    RandomMeasurements = Type6.Object({
      nb_measurements: Type6.Integer({
        minimum: 1,
        maximum: 2e6,
        default: 500,
        description: "Rounded up to a multiple of the number of sensors."
      }),
      yearly_measurements_ratio: ratio(0.8, "Share placed at random times within the last year."),
      dayly_measurements_ratio: ratio(0.1, "Share placed within the last day."),
      hourly_measurements_ratio: ratio(0.1, "Share placed within the last hour."),
      deviation_rate: Type6.Number({
        minimum: 0,
        maximum: MAX_DEVIATION_RATE,
        default: 0.2,
        description: `Standard deviation of a step as a share of the critical range, 0 to ${MAX_DEVIATION_RATE}. Generated values are always finite.`
      }),
      smoothing_factor: ratio(0.5, "Exponential smoothing of the walk."),
      drift_adjustment: ratio(0.15, "Pull toward the middle of the critical range."),
      replace: Type6.Boolean({ default: true, description: "Delete every existing measurement first (in the same transaction)." })
    }, { title: "RandomMeasurements" });
    RandomResult = Type6.Object({ message: Type6.String(), generated: Type6.Integer(), deleted: Type6.Integer() });
  }
});

// dist/core/errors.js
function refusal(name) {
  return class extends Error {
    name = name;
  };
}
var NotFound, Conflict, HasDependents, Unauthenticated, InsufficientStorage, Forbidden, InvalidInput, TooManyAttempts;
var init_errors = __esm({
  "dist/core/errors.js"() {
    "use strict";
    NotFound = refusal("NotFound");
    Conflict = refusal("Conflict");
    HasDependents = class extends Conflict {
      dependents;
      name = "HasDependents";
      constructor(message, dependents) {
        super(message);
        this.dependents = dependents;
      }
    };
    Unauthenticated = refusal("Unauthenticated");
    InsufficientStorage = refusal("InsufficientStorage");
    Forbidden = refusal("Forbidden");
    InvalidInput = class extends Error {
      name = "InvalidInput";
      issues;
      constructor(...issues) {
        super("Invalid input");
        this.issues = issues;
      }
    };
    TooManyAttempts = class extends Error {
      retryAfterSeconds;
      name = "TooManyAttempts";
      constructor(message, retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
      }
    };
  }
});

// dist/domain/duration.js
function num(part) {
  return part === void 0 ? 0 : Number(part.replace(",", "."));
}
function parseIso(text2) {
  const m = ISO.exec(text2);
  if (!m || text2.toUpperCase().endsWith("T"))
    return void 0;
  if (m.slice(1).every((part) => part === void 0))
    return void 0;
  const [, y, mo, w, d, h, mi, s] = m;
  return num(y) * 365 * DAY + num(mo) * 30 * DAY + num(w) * 7 * DAY + num(d) * DAY + num(h) * HOUR + num(mi) * MINUTE + num(s) * SECOND;
}
function parsePython(text2) {
  const m = PYTHON.exec(text2);
  if (!m || m[1] === void 0 && m[2] === void 0)
    return void 0;
  const [, d, h, mi, s] = m;
  if (mi !== void 0 && Number(mi) >= 60)
    return void 0;
  if (s !== void 0 && Number(s) >= 60)
    return void 0;
  return num(d) * DAY + num(h) * HOUR + num(mi) * MINUTE + num(s) * SECOND;
}
function hasCalendarUnits(input) {
  const m = ISO.exec(input.trim());
  return m !== null && (m[1] !== void 0 || m[2] !== void 0);
}
function parseDuration(input) {
  const text2 = input.trim();
  if (text2 === "" || text2.startsWith("-"))
    return void 0;
  let ms;
  if (SECONDS.test(text2))
    ms = Number(text2) * SECOND;
  else if (/^P/i.test(text2))
    ms = parseIso(text2);
  else
    ms = parsePython(text2);
  return ms !== void 0 && Number.isFinite(ms) ? ms : void 0;
}
var SECOND, MINUTE, HOUR, DAY, NUM, ISO, PYTHON, SECONDS;
var init_duration = __esm({
  "dist/domain/duration.js"() {
    "use strict";
    SECOND = 1e3;
    MINUTE = 60 * SECOND;
    HOUR = 60 * MINUTE;
    DAY = 24 * HOUR;
    NUM = String.raw`(\d+(?:[.,]\d+)?)`;
    ISO = new RegExp(String.raw`^P(?:${NUM}Y)?(?:${NUM}M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`, "i");
    PYTHON = /^(?:(\d+(?:\.\d+)?)\s*(?:d|days?)\s*,?\s*)?(?:(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?$/i;
    SECONDS = /^\d+(?:\.\d+)?$/;
  }
});

// dist/http/errors.js
import { STATUS_CODES } from "node:http";
function refusal2(error) {
  if (error instanceof NotFound)
    return new HttpError(404, error.message);
  if (error instanceof InvalidInput)
    return new HttpError(422, error.issues);
  if (error instanceof HasDependents)
    return new HttpError(409, error.message, {}, { dependents: error.dependents });
  if (error instanceof Conflict)
    return new HttpError(409, error.message);
  if (error instanceof Unauthenticated)
    return new HttpError(401, error.message, BEARER_CHALLENGE);
  if (error instanceof Forbidden)
    return new HttpError(403, error.message);
  if (error instanceof InsufficientStorage)
    return new HttpError(507, error.message);
  if (error instanceof TooManyAttempts)
    return new HttpError(429, error.message, { "Retry-After": String(error.retryAfterSeconds) });
  return void 0;
}
function send(reply, error) {
  return reply.code(error.statusCode).headers(error.headers).send({ detail: error.detail, ...error.fields });
}
function pathOf(instancePath) {
  if (instancePath === "")
    return [];
  return instancePath.slice(1).split("/").map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~")).map((part) => /^\d+$/.test(part) ? Number(part) : part);
}
function describe(issue) {
  const p = issue.params;
  switch (issue.keyword) {
    case "required":
      return { msg: "Field required", type: "missing" };
    case "type": {
      const wanted = String(p.type).split(",")[0];
      const [type, msg] = TYPE_NAMES[wanted] ?? ["type_error", `Input should be of type ${p.type}`];
      return { msg, type };
    }
    case "enum": {
      const values = p.allowedValues.map((v) => `'${v}'`);
      const list = values.length > 1 ? `${values.slice(0, -1).join(", ")} or ${values.at(-1)}` : values[0];
      return { msg: `Input should be ${list}`, type: "enum" };
    }
    case "minimum":
      return { msg: `Input should be greater than or equal to ${p.limit}`, type: "greater_than_equal" };
    case "maximum":
      return { msg: `Input should be less than or equal to ${p.limit}`, type: "less_than_equal" };
    case "exclusiveMinimum":
      return { msg: `Input should be greater than ${p.limit}`, type: "greater_than" };
    case "exclusiveMaximum":
      return { msg: `Input should be less than ${p.limit}`, type: "less_than" };
    case "minLength":
      return { msg: `String should have at least ${p.limit} character${p.limit === 1 ? "" : "s"}`, type: "string_too_short" };
    case "maxLength":
      return { msg: `String should have at most ${p.limit} characters`, type: "string_too_long" };
    case "minItems":
      return { msg: `List should have at least ${p.limit} item${p.limit === 1 ? "" : "s"}`, type: "too_short" };
    case "maxItems":
      return { msg: `List should have at most ${p.limit} items`, type: "too_long" };
    case "format":
      return p.format === "date-time" ? { msg: "Input should be a valid datetime (ISO 8601) within the years 1 to 9999", type: "datetime_parsing" } : { msg: `Input should match format ${p.format}`, type: `${p.format}_parsing` };
    case "finite":
      return { msg: "Input should be a finite number", type: "finite_number" };
    case "noNul":
      return { msg: "String should not contain the NUL character (\\u0000)", type: "string_nul" };
    case "pattern":
      return { msg: `String should match pattern '${p.pattern}'`, type: "string_pattern_mismatch" };
    default:
      return { msg: issue.message ?? "Invalid value", type: issue.keyword };
  }
}
function validationIssues(errors2, context) {
  const part = PART[context] ?? context;
  const deeper = errors2.some((e) => e.instancePath !== "");
  const specific = errors2.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf" && !(deeper && e.keyword === "type" && e.instancePath === ""));
  const issues = (specific.length > 0 ? specific : errors2).map((issue) => {
    const loc = [part, ...pathOf(issue.instancePath)];
    if (issue.keyword === "required")
      loc.push(String(issue.params.missingProperty));
    return { loc, ...describe(issue) };
  });
  const seen = /* @__PURE__ */ new Set();
  return issues.filter((i) => {
    const key = JSON.stringify(i);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}
function diskFullDetail(error, storeDisk) {
  const path = error?.path;
  const disk = typeof path === "string" ? `the disk holding ${path}` : storeDisk;
  return `Cannot write: disk full. Free space on ${disk}; reads still work, and writes succeed again once there is space.`;
}
function registerErrorHandling(app, isStoreUnavailable2, isMissingReference2 = () => false, diskFull) {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError)
      return send(reply, error);
    const refused = refusal2(error);
    if (refused)
      return send(reply, refused);
    if (error.validation) {
      return reply.code(422).send({ detail: validationIssues(error.validation, error.validationContext ?? "body") });
    }
    const known = error.code ? FASTIFY_CODES[error.code] : void 0;
    if (known) {
      const [status2, message] = known;
      const detail = status2 === 400 && error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ? `${message}: ${error.message}` : message;
      return reply.code(status2).send({ detail });
    }
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.code(400).send({ detail: `Malformed JSON body: ${error.message}` });
    }
    if (diskFull?.is(error)) {
      request.log.warn({ err: error }, "write refused: disk full");
      return reply.code(507).send({ detail: diskFullDetail(error, diskFull.storeDisk) });
    }
    if (isStoreUnavailable2(error)) {
      request.log.warn({ err: error }, "store unavailable");
      return reply.code(503).header("Retry-After", "5").send({ detail: "Database unavailable, try again shortly." });
    }
    if (isMissingReference2(error))
      return reply.code(404).send({ detail: "A resource the request refers to does not exist" });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return reply.code(status).send({ detail: error.message });
    request.log.error({ err: error }, "request failed");
    return reply.code(500).send({ detail: "Internal Server Error" });
  });
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send({ detail: "Not Found" });
  });
}
function frameworkErrors(error, _request, reply) {
  const [status, detail] = URL_PROBLEMS[error.code] ?? [error.statusCode ?? 400, error.message];
  reply.code(status).send({ detail });
}
function clientErrorHandler(error, socket) {
  if (error.code === "ECONNRESET" || socket.destroyed)
    return;
  const [status, detail] = error.code && CLIENT_ERRORS[error.code] || [400, "Malformed HTTP request"];
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  const body = JSON.stringify({ detail });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r
Content-Type: application/json; charset=utf-8\r
Content-Length: ${Buffer.byteLength(body)}\r
Connection: close\r
\r
${body}`);
}
var HttpError, BEARER_CHALLENGE, PART, TYPE_NAMES, FASTIFY_CODES, URL_PROBLEMS, CLIENT_ERRORS;
var init_errors2 = __esm({
  "dist/http/errors.js"() {
    "use strict";
    init_errors();
    HttpError = class extends Error {
      statusCode;
      detail;
      headers;
      fields;
      constructor(statusCode, detail, headers = {}, fields = {}) {
        super(typeof detail === "string" ? detail : "Validation failed");
        this.statusCode = statusCode;
        this.detail = detail;
        this.headers = headers;
        this.fields = fields;
        this.name = "HttpError";
      }
    };
    BEARER_CHALLENGE = { "WWW-Authenticate": "Bearer" };
    PART = { body: "body", querystring: "query", params: "path", headers: "header" };
    TYPE_NAMES = {
      integer: ["int_parsing", "Input should be a valid integer"],
      number: ["float_parsing", "Input should be a valid number"],
      string: ["string_type", "Input should be a valid string"],
      boolean: ["bool_parsing", "Input should be a valid boolean"],
      object: ["model_type", "Input should be a valid object"],
      array: ["list_type", "Input should be a valid list"],
      null: ["none_required", "Input should be null"]
    };
    FASTIFY_CODES = {
      FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, "Unsupported content type"],
      FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, "Content-Length does not match the body"],
      FST_ERR_CTP_BODY_TOO_LARGE: [413, "Request body is too large"],
      FST_ERR_CTP_EMPTY_JSON_BODY: [400, "Body cannot be empty when the content type is application/json"],
      FST_ERR_CTP_INVALID_JSON_BODY: [400, "Malformed JSON body"]
    };
    URL_PROBLEMS = {
      FST_ERR_BAD_URL: [400, "Malformed URL (invalid percent-encoding)"],
      FST_ERR_MAX_PARAM_LENGTH: [414, "A path parameter is too long"],
      FST_ERR_ASYNC_CONSTRAINT: [500, "Internal Server Error"]
    };
    CLIENT_ERRORS = {
      ERR_HTTP_REQUEST_TIMEOUT: [408, "Request timed out"],
      HPE_HEADER_OVERFLOW: [431, "Request header fields too large (the URL included)"],
      HPE_URI_TOO_LONG: [414, "URI too long"]
    };
  }
});

// dist/domain/bucket-sizes.js
function bucketStart(ms, size) {
  return Math.floor(ms / size) * size;
}
function bucketCeil(ms, size) {
  return Math.ceil(ms / size) * size;
}
function keptSizeDividing(size) {
  for (let i = KEPT_SIZES.length - 1; i >= 0; i--)
    if (size % KEPT_SIZES[i] === 0)
      return KEPT_SIZES[i];
  return void 0;
}
function sizeForBuckets(spanMs, maxBuckets) {
  const wanted = Math.max(1, Math.ceil(spanMs / Math.max(1, maxBuckets)));
  let kept;
  for (const size of KEPT_SIZES)
    if (size <= wanted)
      kept = size;
  if (kept === void 0)
    return wanted;
  return Math.ceil(wanted / kept) * kept;
}
function bucketsIn(start, end, size) {
  return Math.max(0, (bucketCeil(end, size) - bucketStart(start, size)) / size);
}
function parseBucketSize(text2, parseDuration2) {
  const short = SHORT.exec(text2.trim());
  if (short)
    return Number(short[1]) * UNIT_MS[short[2].toLowerCase()];
  return parseDuration2(text2);
}
function sizeFittingIn(start, end, most) {
  let size = sizeForBuckets(end - start, most);
  for (let step = 0; step < 2e3; step++) {
    if (bucketsIn(start, end, size) <= most)
      return size;
    const unit = keptSizeDividing(size) ?? 1;
    size += Math.max(unit, Math.ceil(size / 100 / unit) * unit);
  }
  return void 0;
}
var FIVE_MINUTES, HOUR2, DAY2, KEPT_SIZES, MAX_BUCKETS, UNIT_MS, SHORT;
var init_bucket_sizes = __esm({
  "dist/domain/bucket-sizes.js"() {
    "use strict";
    FIVE_MINUTES = 5 * 6e4;
    HOUR2 = 60 * 6e4;
    DAY2 = 24 * HOUR2;
    KEPT_SIZES = [FIVE_MINUTES, HOUR2, DAY2];
    MAX_BUCKETS = 1e5;
    UNIT_MS = { ms: 1, s: 1e3, m: 6e4, h: HOUR2, d: DAY2, w: 7 * DAY2 };
    SHORT = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/i;
  }
});

// dist/domain/numeric-text.js
function digitsFrom(text2, i) {
  while (i < text2.length && isDigit(text2.charCodeAt(i)))
    i++;
  return i;
}
function isNumericText(text2, kind) {
  if (text2.length === 0 || text2.length > MAX_NUMERIC_TEXT)
    return false;
  if (kind === "digits")
    return digitsFrom(text2, 0) === text2.length;
  let i = 0;
  let end = text2.length;
  while (i < end && isBlank(text2.charCodeAt(i)))
    i++;
  while (end > i && isBlank(text2.charCodeAt(end - 1)))
    end--;
  const body = text2.slice(i, end);
  let at = body.startsWith("-") || body.startsWith("+") ? 1 : 0;
  const intEnd = digitsFrom(body, at);
  const intDigits = intEnd - at;
  at = intEnd;
  if (kind === "integer")
    return intDigits > 0 && at === body.length;
  let fracDigits = 0;
  if (body[at] === ".") {
    const fracEnd = digitsFrom(body, at + 1);
    fracDigits = fracEnd - at - 1;
    at = fracEnd;
  }
  if (intDigits === 0 && fracDigits === 0)
    return false;
  if (body[at] === "e" || body[at] === "E") {
    at++;
    if (body[at] === "-" || body[at] === "+")
      at++;
    const expEnd = digitsFrom(body, at);
    if (expEnd === at)
      return false;
    at = expEnd;
  }
  return at === body.length;
}
function isBlank(code) {
  return code === 32 || code >= 9 && code <= 13;
}
var MAX_NUMERIC_TEXT, isDigit;
var init_numeric_text = __esm({
  "dist/domain/numeric-text.js"() {
    "use strict";
    MAX_NUMERIC_TEXT = 64;
    isDigit = (code) => code >= 48 && code <= 57;
  }
});

// dist/http/coerce.js
function finite(text2) {
  const value = Number(text2);
  return Number.isFinite(value) && Number.isSafeInteger(Math.trunc(value)) ? value : text2;
}
function typeOf(schema) {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function compileCoercion(schema, source = "json") {
  const fromText = source !== "json";
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const byType = (wanted) => branches.find((b) => typeOf(b) === wanted) ?? branches.find((b) => typeOf(b) !== void 0 && typeOf(b) !== "array" && typeOf(b) !== "object");
    const forArray = byType("array");
    const forObject = byType("object");
    const forOther = byType(void 0);
    const [arrays, objects, others] = [forArray, forObject, forOther].map((b) => b ? compileCoercion(b, source) : null);
    if (!arrays && !objects && !others)
      return null;
    return (data) => {
      const coerce = Array.isArray(data) ? arrays : isPlainObject(data) ? objects : others;
      return coerce ? coerce(data) : data;
    };
  }
  switch (typeOf(schema)) {
    case "object": {
      const fields = Object.entries(schema.properties ?? {}).map(([key, property]) => [key, compileCoercion(property, source)]).filter((field) => field[1] !== null);
      if (fields.length === 0)
        return null;
      return (data) => {
        if (isPlainObject(data)) {
          for (const [key, coerce] of fields)
            if (Object.hasOwn(data, key))
              data[key] = coerce(data[key]);
        }
        return data;
      };
    }
    case "array": {
      const item = schema.items ? compileCoercion(schema.items, source) : null;
      if (!item && !fromText)
        return null;
      return (data) => {
        const list = fromText && data !== void 0 && !Array.isArray(data) ? [data] : data;
        if (item && Array.isArray(list))
          for (let i = 0; i < list.length; i++)
            list[i] = item(list[i]);
        return list;
      };
    }
    case "integer":
      return source === "path" ? toPathInteger : toInteger;
    case "number":
      return toNumber;
    case "boolean":
      return fromText ? toBoolean : null;
    default:
      return null;
  }
}
var toInteger, toPathInteger, toNumber, toBoolean;
var init_coerce = __esm({
  "dist/http/coerce.js"() {
    "use strict";
    init_numeric_text();
    toInteger = (data) => typeof data === "string" && isNumericText(data, "integer") ? finite(data) : data;
    toPathInteger = (data) => typeof data === "string" && isNumericText(data, "digits") ? finite(data) : data;
    toNumber = (data) => typeof data === "string" && isNumericText(data, "number") ? finite(data) : data;
    toBoolean = (data) => data === "true" ? true : data === "false" ? false : data;
  }
});

// dist/http/input-limits.js
function addInputLimitKeywords(ajv) {
  ajv.addKeyword({
    keyword: "finite",
    type: "number",
    schemaType: "boolean",
    errors: false,
    validate: (wanted, data) => !wanted || Number.isFinite(data)
  });
  ajv.addKeyword({
    keyword: "noNul",
    type: "string",
    schemaType: "boolean",
    errors: false,
    validate: (wanted, data) => !wanted || !data.includes("\0")
  });
}
function hasType(node, ...types) {
  const type = node.type;
  return Array.isArray(type) ? type.some((t) => types.includes(t)) : types.includes(type);
}
function withInputLimits(schema) {
  const walk = (value) => {
    if (Array.isArray(value))
      return value.map(walk);
    if (!isNode(value))
      return value;
    const out = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] = key === "examples" || key === "default" || key === "enum" || key === "const" ? child : walk(child);
    }
    if (hasType(value, "number", "integer"))
      out.finite = true;
    if (hasType(value, "string"))
      out.noNul = true;
    return out;
  };
  return walk(schema);
}
var isNode;
var init_input_limits = __esm({
  "dist/http/input-limits.js"() {
    "use strict";
    isNode = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  }
});

// dist/http/validation.js
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
function createAjv() {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: false,
    useDefaults: true,
    // "Unknown body fields are ignored": they are dropped before the handler sees the body.
    removeAdditional: "all",
    strict: false,
    addUsedSchema: false
  });
  addFormats.default(ajv);
  addInputLimitKeywords(ajv);
  ajv.addFormat("date-time", { type: "string", validate: isDateTime });
  ajv.addFormat("duration", { type: "string", validate: () => true });
  return ajv;
}
function compiled(schema, httpPart) {
  const source = httpPart === "params" ? "path" : httpPart === "querystring" ? "query" : "json";
  let byPart = compiledBySchema.get(schema);
  if (!byPart)
    compiledBySchema.set(schema, byPart = /* @__PURE__ */ new Map());
  let entry2 = byPart.get(source);
  if (!entry2) {
    shared ??= createAjv();
    entry2 = { check: shared.compile(withInputLimits(schema)), coerce: compileCoercion(schema, source) };
    byPart.set(source, entry2);
  }
  return entry2;
}
function validatorCompiler() {
  return ({ schema, httpPart }) => {
    const { check, coerce } = compiled(schema, httpPart);
    const validate = (data) => {
      const value = coerce ? coerce(data) : data;
      const ok = check(value);
      validate.errors = check.errors;
      return ok ? { value } : false;
    };
    validate.errors = null;
    return validate;
  };
}
var shared, compiledBySchema;
var init_validation = __esm({
  "dist/http/validation.js"() {
    "use strict";
    init_date_time();
    init_coerce();
    init_input_limits();
    compiledBySchema = /* @__PURE__ */ new WeakMap();
  }
});

// dist/mqtt/sharing.js
var SHARE_GROUP, INGEST_LINKS, LINK_STATES;
var init_sharing = __esm({
  "dist/mqtt/sharing.js"() {
    "use strict";
    SHARE_GROUP = "sensorhub";
    INGEST_LINKS = 32;
    LINK_STATES = ["connecting", "connected", "disconnected"];
  }
});

// dist/store/errors.js
import { resolve } from "node:path";
function isStoreUnavailable(error) {
  if (!(error instanceof Error))
    return false;
  const code = error.code ?? "";
  if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "SQLITE_BUSY", "SQLITE_LOCKED"].includes(code)) {
    return true;
  }
  if (/^08/.test(code) || ["57P01", "57P02", "57P03", "57014", "53300"].includes(code))
    return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|Connection is not open|not queryable/i.test(error.message);
}
function isMissingReference(error) {
  const code = error?.code;
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}
function isDiskFull(error) {
  const code = error?.code;
  return code === "SQLITE_FULL" || code === "53100" || code === "ENOSPC" || code === "EDQUOT";
}
function storeDiskOf(databaseUrl2) {
  if (databaseUrl2 === "sqlite::memory:")
    return "the service's memory (the store is in memory)";
  if (databaseUrl2.startsWith("sqlite:"))
    return `the disk holding ${resolve(databaseUrl2.replace(/^sqlite:(\/\/)?/, ""))}`;
  return "the PostgreSQL server's disk (its data directory)";
}
var init_errors3 = __esm({
  "dist/store/errors.js"() {
    "use strict";
  }
});

// dist/store/insides.js
function withInsides(store, inside) {
  insides.set(store, inside);
  return store;
}
function insidesOf(store) {
  const inside = insides.get(store);
  if (!inside)
    throw new Error("not a store opened by openStore");
  return inside;
}
var insides;
var init_insides = __esm({
  "dist/store/insides.js"() {
    "use strict";
    insides = /* @__PURE__ */ new WeakMap();
  }
});

// dist/store/copy.js
import { sql } from "kysely";
function anyTable(db) {
  const untyped = db;
  return {
    /** The next batch of rows in key order, after the row whose key is `after` (a composite key compares as a row value). */
    page: (table, key, after) => {
      let query = untyped.selectFrom(table).selectAll().limit(BATCH2);
      for (const column of key)
        query = query.orderBy(column);
      if (after !== void 0) {
        const row = (columns3) => sql.join(columns3);
        query = query.where(sql`(${row(key.map((c) => sql.ref(c)))}) > (${row(key.map((c) => after[c]))})`);
      }
      return query.execute();
    },
    insert: (table, rows) => untyped.insertInto(table).values(rows).execute()
  };
}
async function rowCounts(store) {
  const { db } = insidesOf(store);
  const counts = {};
  for (const table of TABLES) {
    const row = await sql`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(row.rows[0].n);
  }
  return counts;
}
async function copyStore(from, to, progress) {
  const totals = await rowCounts(from);
  const [source, target] = [anyTable(insidesOf(from).db), anyTable(insidesOf(to).db)];
  const { db: targetDb, dialect: targetDialect } = insidesOf(to);
  for (const table of TABLES) {
    const { key: declared, columns: columns3 } = COLUMNS[table];
    const key = typeof declared === "string" ? [declared] : declared;
    const conversions = Object.entries(columns3);
    const convert = (row) => {
      const out = { ...row };
      for (const [column, conversion] of conversions) {
        const value = out[column];
        if (conversion === "time")
          out[column] = value === null ? null : targetDialect.time(Number(value));
        else if (conversion === "bool")
          out[column] = value === null ? null : targetDialect.bool(Boolean(value));
        else if (conversion === "bytes")
          out[column] = Buffer.from(value);
      }
      return out;
    };
    let copied = 0;
    let after;
    for (; ; ) {
      const rows = await source.page(table, key, after);
      if (rows.length === 0)
        break;
      await target.insert(table, rows.map(convert));
      copied += rows.length;
      after = rows[rows.length - 1];
      progress(table, copied, totals[table]);
    }
    if (copied === 0)
      progress(table, 0, 0);
    const identity = IDENTITIES[table];
    if (identity)
      await targetDialect.continueIdentity(targetDb, table, identity);
  }
  await copyHistory(from, to, progress);
  return totals;
}
async function copyHistory(from, to, progress) {
  const [source, target] = [insidesOf(from).db, insidesOf(to).db];
  const total = Number((await source.selectFrom("history_buckets").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
  let copied = 0;
  let after;
  for (; ; ) {
    let query = source.selectFrom("history_buckets").selectAll().orderBy("sensor_id").orderBy("size_ms").orderBy("start_ms").limit(1e3);
    if (after) {
      const { sensor_id, size_ms, start_ms } = after;
      query = query.where((eb) => eb.or([
        eb("sensor_id", ">", sensor_id),
        eb.and([
          eb("sensor_id", "=", sensor_id),
          eb.or([eb("size_ms", ">", size_ms), eb.and([eb("size_ms", "=", size_ms), eb("start_ms", ">", start_ms)])])
        ])
      ]));
    }
    const rows = await query.execute();
    if (rows.length === 0)
      break;
    await target.insertInto("history_buckets").values(rows).execute();
    copied += rows.length;
    after = rows[rows.length - 1];
    progress("history_buckets", copied, total);
  }
  if (copied === 0)
    progress("history_buckets", 0, 0);
}
var TABLES, COLUMNS, IDENTITIES, BATCH2;
var init_copy = __esm({
  "dist/store/copy.js"() {
    "use strict";
    init_insides();
    TABLES = [
      "prototypes",
      "sensors",
      "actuators",
      "actuator_interlocks",
      "activations",
      "refills",
      "calibrations",
      "notes",
      "note_tags",
      "safety_events",
      "users",
      "device_tokens",
      "settings",
      "pictures",
      "measurements",
      "alerts",
      "alert_levels",
      "alert_notifications"
    ];
    COLUMNS = {
      prototypes: { key: "prototype_id", columns: { prototype_id: "as-is", prototype_name: "as-is", paused_until: "time" } },
      sensors: {
        key: "sensor_id",
        columns: {
          sensor_id: "as-is",
          sensor_type: "as-is",
          prototype_id: "as-is",
          sensor_unit: "as-is",
          threshold_critically_low: "as-is",
          threshold_low: "as-is",
          threshold_high: "as-is",
          threshold_critically_high: "as-is",
          valid_min: "as-is",
          valid_max: "as-is",
          stale_after: "as-is",
          stuck_after: "as-is",
          sensor_name: "as-is",
          calibration_interval: "as-is",
          calibrated_at: "time",
          calibration_due: "time"
        }
      },
      actuators: {
        key: "actuator_id",
        columns: {
          actuator_id: "as-is",
          actuator_type: "as-is",
          sensor_id: "as-is",
          condition_value: "as-is",
          activation_condition: "as-is",
          activation_period: "as-is",
          activation_duration: "as-is",
          actuator_name: "as-is",
          enabled: "bool",
          last_activated: "time",
          max_doses_per_hour: "as-is",
          max_seconds_per_day: "as-is",
          min_response: "as-is",
          response_delay: "as-is",
          lockout_after: "as-is",
          controller_timeout: "as-is",
          flow_ml_per_s: "as-is",
          max_ml_per_day: "as-is",
          stock_ml: "as-is",
          stock_low_ml: "as-is",
          lockout_since: "time",
          lockout_reason: "as-is",
          unanswered_streak: "as-is",
          last_polled: "time"
        }
      },
      actuator_interlocks: {
        key: ["actuator_id", "position"],
        columns: { actuator_id: "as-is", position: "as-is", sensor_id: "as-is", block_below: "as-is", block_above: "as-is" }
      },
      activations: {
        key: "activation_id",
        columns: {
          activation_id: "as-is",
          actuator_id: "as-is",
          activated_at: "time",
          duration: "as-is",
          value_before: "as-is",
          answered: "bool",
          volume_ml: "as-is"
        }
      },
      refills: {
        key: "refill_id",
        columns: { refill_id: "as-is", actuator_id: "as-is", refilled_at: "time", stock_ml: "as-is", author: "as-is" }
      },
      calibrations: {
        key: "calibration_id",
        columns: {
          calibration_id: "as-is",
          sensor_id: "as-is",
          calibrated_at: "time",
          points: "as-is",
          slope: "as-is",
          offset: "as-is",
          accepted: "bool",
          note: "as-is",
          author: "as-is"
        }
      },
      notes: { key: "note_id", columns: { note_id: "as-is", prototype_id: "as-is", at: "time", text: "as-is", author: "as-is" } },
      note_tags: { key: ["note_id", "position"], columns: { note_id: "as-is", position: "as-is", tag: "as-is" } },
      safety_events: {
        key: "event_id",
        columns: {
          event_id: "as-is",
          kind: "as-is",
          at: "time",
          actuator_id: "as-is",
          prototype_id: "as-is",
          until: "time",
          reason: "as-is",
          author: "as-is"
        }
      },
      users: {
        key: "user_id",
        columns: {
          user_id: "as-is",
          username: "as-is",
          password_hash: "as-is",
          permissions: "as-is",
          created_at: "time",
          tokens_valid_after: "time",
          token_generation: "as-is",
          session_generation: "as-is"
        }
      },
      device_tokens: {
        key: "token_id",
        columns: { token_id: "as-is", user_id: "as-is", name: "as-is", created_at: "time", expires_at: "time", last_used_at: "time" }
      },
      settings: { key: "key", columns: { key: "as-is", value: "as-is" } },
      pictures: { key: "picture_id", columns: { picture_id: "as-is", content_type: "as-is", bytes: "bytes", updated_at: "time" } },
      measurements: { key: "measurement_id", columns: { measurement_id: "as-is", sensor_id: "as-is", value: "as-is", timestamp: "time" } },
      alerts: {
        key: "alert_id",
        columns: {
          alert_id: "as-is",
          sensor_id: "as-is",
          actuator_id: "as-is",
          kind: "as-is",
          severity: "as-is",
          state: "as-is",
          raised_at: "time",
          cleared_at: "time",
          acknowledged_at: "time",
          acknowledged_by: "as-is",
          value: "as-is",
          peak: "as-is",
          last_value: "as-is"
        }
      },
      alert_levels: { key: "sensor_id", columns: { sensor_id: "as-is", level: "as-is", ok_since: "time", calm_since: "time" } },
      alert_notifications: {
        key: "notification_id",
        columns: {
          notification_id: "as-is",
          alert_id: "as-is",
          url: "as-is",
          idempotency_key: "as-is",
          payload: "as-is",
          created_at: "time",
          attempts: "as-is",
          next_attempt_at: "time",
          last_error: "as-is"
        }
      }
    };
    IDENTITIES = {
      sensors: "sensor_id",
      actuators: "actuator_id",
      activations: "activation_id",
      refills: "refill_id",
      calibrations: "calibration_id",
      notes: "note_id",
      safety_events: "event_id",
      users: "user_id",
      device_tokens: "token_id",
      measurements: "measurement_id",
      alerts: "alert_id",
      alert_notifications: "notification_id"
    };
    BATCH2 = 5e3;
  }
});

// dist/store/backup/worker.js
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
function inWorker(task, args, onProgress = () => {
}) {
  return new Promise((resolve4, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { driver, task, args } });
    let settled = false;
    worker.on("message", (message) => {
      if (message.type === "progress")
        return onProgress(message.copied, message.total);
      settled = true;
      if (message.type === "done")
        resolve4(message.result);
      else
        reject(Object.assign(new Error(message.message), { code: message.code }));
    });
    worker.on("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.on("exit", (code) => {
      if (!settled)
        reject(new Error(`the backup worker stopped (exit code ${code})`));
    });
  });
}
var WORKER, driver;
var init_worker = __esm({
  "dist/store/backup/worker.js"() {
    "use strict";
    WORKER = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);

const quote = (name) => '"' + name.replace(/"/g, '""') + '"';
const tablesOf = (db) =>
  db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all();
const countsOf = (db) => Object.fromEntries(tablesOf(db).map((t) => [t, db.prepare('select count(*) from ' + quote(t)).pluck().get()]));

const tasks = {
  // One read transaction over the whole copy: the counts and every page come from one snapshot,
  // and a WAL reader blocks no writer (the service's ingest goes on beside it).
  async backup({ source, dest, stepPages }) {
    const db = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      db.exec('BEGIN');
      const counts = countsOf(db);
      await db.backup(dest, {
        progress: ({ totalPages, remainingPages }) => {
          parentPort.postMessage({ type: 'progress', copied: totalPages - remainingPages, total: totalPages });
          return stepPages;
        },
      });
      db.exec('COMMIT');
      return { counts };
    } finally {
      db.close();
    }
  },
  // A copy is one self-contained file (no WAL beside it), then read back read-only.
  async check({ file }) {
    const writable = new SQLite(file, { fileMustExist: true });
    try {
      writable.pragma('journal_mode = DELETE');
    } finally {
      writable.close();
    }
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      const integrity = db.pragma('integrity_check').map((row) => row.integrity_check);
      return { integrity, counts: countsOf(db) };
    } finally {
      db.close();
    }
  },
};

tasks[workerData.task](workerData.args).then(
  (result) => parentPort.postMessage({ type: 'done', result }),
  (error) => parentPort.postMessage({ type: 'failed', message: error.message, code: error.code }),
);
`;
    driver = createRequire(import.meta.url).resolve("better-sqlite3");
  }
});

// dist/store/backup/sqlite-file.js
async function backupSqliteFile(source, dest, progress) {
  const { counts } = await inWorker("backup", { source, dest, stepPages: STEP_PAGES }, progress);
  return counts;
}
async function checkSqliteCopy(file, expected) {
  let found;
  try {
    found = await inWorker("check", { file });
  } catch (error) {
    return { ok: false, problems: [`not a readable SQLite file: ${error.message}`], counts: {} };
  }
  const problems = [];
  if (found.integrity.length !== 1 || found.integrity[0] !== "ok")
    problems.push(`integrity_check: ${found.integrity.slice(0, 5).join("; ")}`);
  const missing = SERVICE_TABLES.filter((table) => !(table in found.counts));
  if (missing.length > 0)
    problems.push(`missing tables: ${missing.join(", ")}`);
  for (const [table, rows] of Object.entries(expected ?? {})) {
    if (found.counts[table] !== rows)
      problems.push(`${table}: ${found.counts[table] ?? "no table"} rows, expected ${rows}`);
  }
  return { ok: problems.length === 0, problems, counts: found.counts };
}
var STEP_PAGES, SERVICE_TABLES;
var init_sqlite_file = __esm({
  "dist/store/backup/sqlite-file.js"() {
    "use strict";
    init_worker();
    STEP_PAGES = 64;
    SERVICE_TABLES = [
      "prototypes",
      "sensors",
      "actuators",
      "measurements",
      "users",
      "settings",
      "alerts",
      "history_buckets",
      "kysely_migration"
    ];
  }
});

// dist/store/fsync.js
import { closeSync, fsyncSync, openSync } from "node:fs";
function fsyncPath(path) {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
var init_fsync = __esm({
  "dist/store/fsync.js"() {
    "use strict";
  }
});

// dist/store/sqlite/store-lock.js
import { closeSync as closeSync2, openSync as openSync2 } from "node:fs";
import SQLite from "better-sqlite3";
function lockDatabase(file, timeoutMs) {
  const lockFile = lockFileOf(file);
  closeSync2(openSync2(lockFile, "a", 384));
  return new SQLite(lockFile, { timeout: timeoutMs });
}
function holdStoreLock(file) {
  const lock = lockDatabase(file, 5e3);
  lock.exec("BEGIN");
  lock.prepare("select count(*) from sqlite_master").pluck().get();
  return () => {
    if (lock.open)
      lock.close();
  };
}
var lockFileOf;
var init_store_lock = __esm({
  "dist/store/sqlite/store-lock.js"() {
    "use strict";
    lockFileOf = (file) => `${file}.lock`;
  }
});

// dist/store/backup/paths.js
var init_paths = __esm({
  "dist/store/backup/paths.js"() {
    "use strict";
  }
});

// dist/store/backup/restore.js
var init_restore = __esm({
  "dist/store/backup/restore.js"() {
    "use strict";
    init_fsync();
    init_store_lock();
    init_paths();
    init_sqlite_file();
  }
});

// dist/domain/time-window.js
function resolveWindow(input, now) {
  if (input.time_delta !== void 0) {
    if (input.start_time !== void 0) {
      return { field: "time_delta", msg: "time_delta cannot be combined with start_time", type: "value_error" };
    }
    const delta = parseDuration(input.time_delta);
    if (delta === void 0) {
      return {
        field: "time_delta",
        msg: "Input should be a valid non-negative duration (e.g. P7D, 07d,00:00:00, 3600)",
        type: "duration_parsing"
      };
    }
    if (delta > LONGEST_DURATION) {
      return { field: "time_delta", msg: "Duration should be at most the span of the years 1 to 9999", type: "duration_too_long" };
    }
    const window = input.end_time !== void 0 ? { start: input.end_time - delta, end: input.end_time, endInclusive: false } : { start: now - delta, end: now, endInclusive: true };
    if (!isWithinYears(window.start)) {
      return { field: "time_delta", msg: "The window should start within the years 1 to 9999", type: "value_error" };
    }
    return window;
  }
  if (input.start_time !== void 0 && input.end_time !== void 0 && input.start_time > input.end_time) {
    return { field: "start_time", msg: "start_time must not be after end_time", type: "value_error" };
  }
  return { start: input.start_time, end: input.end_time, endInclusive: false };
}
function isWindowProblem(value) {
  return "field" in value;
}
function restAfter(window, timestamp) {
  return { ...window, start: window.start === void 0 ? timestamp : Math.max(window.start, timestamp) };
}
var init_time_window = __esm({
  "dist/domain/time-window.js"() {
    "use strict";
    init_duration();
    init_instants();
  }
});

// dist/store/migrations/001_core.js
import { sql as sql2 } from "kysely";
function coreMigration({ time, float, bool, bytes, bigId, identity, rowKey }) {
  return {
    async up(db) {
      await db.schema.createTable("prototypes").addColumn("prototype_id", "integer", (c) => c.primaryKey()).addColumn("prototype_name", "text", (c) => c.notNull()).execute();
      await db.schema.createTable("sensors").addColumn("sensor_id", "integer", identity).addColumn("sensor_type", "text", (c) => c.notNull()).addColumn("prototype_id", "integer", (c) => c.notNull().references("prototypes.prototype_id")).addColumn("sensor_unit", "text", (c) => c.notNull()).addColumn("threshold_critically_low", float, (c) => c.notNull()).addColumn("threshold_low", float, (c) => c.notNull()).addColumn("threshold_high", float, (c) => c.notNull()).addColumn("threshold_critically_high", float, (c) => c.notNull()).execute();
      await db.schema.createIndex("sensors_by_prototype").on("sensors").columns(["prototype_id", "sensor_id"]).execute();
      await db.schema.createTable("measurements").addColumn("measurement_id", bigId, rowKey).addColumn("sensor_id", "integer", (c) => c.notNull().references("sensors.sensor_id")).addColumn("value", float, (c) => c.notNull()).addColumn("timestamp", time, (c) => c.notNull()).execute();
      await db.schema.createIndex("measurements_by_sensor_time").on("measurements").columns(["sensor_id", "timestamp", "measurement_id"]).execute();
      await db.schema.createTable("actuators").addColumn("actuator_id", "integer", identity).addColumn("actuator_type", "text", (c) => c.notNull()).addColumn("sensor_id", "integer", (c) => c.notNull().references("sensors.sensor_id")).addColumn("condition_value", float, (c) => c.notNull()).addColumn("activation_condition", "text", (c) => c.notNull()).addColumn("activation_period", float, (c) => c.notNull()).addColumn("activation_duration", float, (c) => c.notNull()).addColumn("actuator_name", "text").addColumn("enabled", bool, (c) => c.notNull()).addColumn("last_activated", time, (c) => c.notNull()).execute();
      await db.schema.createIndex("actuators_by_sensor").on("actuators").columns(["sensor_id", "actuator_id"]).execute();
      await db.schema.createTable("users").addColumn("user_id", "integer", identity).addColumn("username", "text", (c) => c.notNull().unique()).addColumn("password_hash", "text", (c) => c.notNull()).addColumn("permissions", "integer", (c) => c.notNull()).addColumn("created_at", time, (c) => c.notNull()).addColumn("tokens_valid_after", time).execute();
      await db.schema.createTable("settings").addColumn("key", "text", (c) => c.primaryKey()).addColumn("value", "text", (c) => c.notNull()).execute();
      await db.schema.createTable("pictures").addColumn("picture_id", "integer", (c) => c.primaryKey()).addColumn("content_type", "text", (c) => c.notNull()).addColumn("bytes", bytes, (c) => c.notNull()).addColumn("updated_at", time, (c) => c.notNull()).execute();
    },
    async down(db) {
      for (const table of ["pictures", "settings", "users", "actuators", "measurements", "sensors", "prototypes"]) {
        await sql2`drop table if exists ${sql2.table(table)}`.execute(db);
      }
    }
  };
}
var init_core = __esm({
  "dist/store/migrations/001_core.js"() {
    "use strict";
  }
});

// dist/store/migrations/002_token_generation.js
import { sql as sql3 } from "kysely";
function tokenGenerationMigration() {
  return {
    async up(db) {
      await db.schema.alterTable("users").addColumn("token_generation", "integer", (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db) {
      await sql3`alter table users drop column token_generation`.execute(db);
    }
  };
}
var init_token_generation = __esm({
  "dist/store/migrations/002_token_generation.js"() {
    "use strict";
  }
});

// dist/store/migrations/003_finite_numbers.js
import { sql as sql4 } from "kysely";
function finiteNumbersMigration(kind) {
  const pg3 = kind === "postgres";
  const infinite = (column) => pg3 ? sql4`${sql4.ref(column)} in ('Infinity'::float8, '-Infinity'::float8)` : sql4`abs(${sql4.ref(column)}) = 9e999`;
  const notFinite = (column) => pg3 ? sql4`${sql4.ref(column)} in ('Infinity'::float8, '-Infinity'::float8, 'NaN'::float8)` : sql4`abs(${sql4.ref(column)}) = 9e999`;
  return {
    async up(db) {
      await sql4`delete from measurements where ${notFinite("value")}`.execute(db);
      for (const table of ["sensors", "actuators"]) {
        for (const column of FLOAT_COLUMNS[table]) {
          const col = sql4.ref(column);
          await sql4`update ${sql4.table(table)} set ${col} = cast(case when ${col} > 0 then ${Number.MAX_VALUE} else ${-Number.MAX_VALUE} end as double precision)
            where ${infinite(column)}`.execute(db);
          if (pg3)
            await sql4`update ${sql4.table(table)} set ${col} = 0 where ${col} = 'NaN'::float8`.execute(db);
        }
      }
      for (const [table, columns3] of Object.entries(FLOAT_COLUMNS)) {
        if (pg3) {
          for (const column of columns3) {
            await sql4`alter table ${sql4.table(table)} add constraint ${sql4.ref(`${table}_${column}_finite`)}
              check (not (${notFinite(column)}))`.execute(db);
          }
          continue;
        }
        const anyNotFinite = sql4.join(columns3.map((column) => sql4`abs(new.${sql4.ref(column)}) = 9e999`), sql4` or `);
        const message = sql4.lit(`${table}: ${columns3.join(", ")} must be finite`);
        for (const event of ["insert", "update"]) {
          await sql4`create trigger ${sql4.ref(`${table}_finite_${event}`)} before ${sql4.raw(event)} on ${sql4.table(table)}
            when ${anyNotFinite}
            begin select raise(abort, ${message}); end`.execute(db);
        }
      }
    },
    async down(db) {
      for (const [table, columns3] of Object.entries(FLOAT_COLUMNS)) {
        if (pg3) {
          for (const column of columns3) {
            await sql4`alter table ${sql4.table(table)} drop constraint if exists ${sql4.ref(`${table}_${column}_finite`)}`.execute(db);
          }
        } else {
          for (const event of ["insert", "update"])
            await sql4`drop trigger if exists ${sql4.ref(`${table}_finite_${event}`)}`.execute(db);
        }
      }
    }
  };
}
var FLOAT_COLUMNS;
var init_finite_numbers = __esm({
  "dist/store/migrations/003_finite_numbers.js"() {
    "use strict";
    FLOAT_COLUMNS = {
      measurements: ["value"],
      sensors: ["threshold_critically_low", "threshold_low", "threshold_high", "threshold_critically_high"],
      actuators: ["condition_value", "activation_period", "activation_duration"]
    };
  }
});

// dist/store/migrations/004_no_nul.js
import { sql as sql5 } from "kysely";
function noNulMigration(kind) {
  return {
    async up(db) {
      if (kind === "postgres")
        return;
      for (const [table, column] of TEXT_COLUMNS) {
        const rows = await sql5`select rowid as id, ${sql5.ref(column)} as text from ${sql5.table(table)}
          where instr(cast(${sql5.ref(column)} as blob), x'00') > 0`.execute(db);
        for (const { id, text: text2 } of rows.rows) {
          await sql5`update ${sql5.table(table)} set ${sql5.ref(column)} = ${text2.replaceAll("\0", "\uFFFD")} where rowid = ${id}`.execute(db);
        }
      }
    },
    async down() {
    }
  };
}
var TEXT_COLUMNS;
var init_no_nul = __esm({
  "dist/store/migrations/004_no_nul.js"() {
    "use strict";
    TEXT_COLUMNS = [
      ["prototypes", "prototype_name"],
      ["sensors", "sensor_unit"],
      ["actuators", "actuator_name"]
    ];
  }
});

// dist/domain/bucket-summary.js
function pointOf(m) {
  return { id: m.measurement_id, ts: m.timestamp, value: m.value };
}
function summaryOf(m) {
  return summaryOfPoint(pointOf(m));
}
function merge(a, b) {
  return {
    count: a.count + b.count,
    sum: a.sum + b.sum,
    min: lower(b.min, a.min) ? b.min : a.min,
    max: higher(b.max, a.max) ? b.max : a.max,
    first: earlier(b.first, a.first) ? b.first : a.first,
    last: earlier(a.last, b.last) ? b.last : a.last
  };
}
function mergeInto(into, b) {
  into.count += b.count;
  into.sum += b.sum;
  if (lower(b.min, into.min))
    into.min = b.min;
  if (higher(b.max, into.max))
    into.max = b.max;
  if (earlier(b.first, into.first))
    into.first = b.first;
  if (earlier(into.last, b.last))
    into.last = b.last;
}
function add(into, m) {
  addPoint(into, pointOf(m));
}
function addPoint(into, p) {
  into.count += 1;
  into.sum += p.value;
  if (lower(p, into.min))
    into.min = p;
  if (higher(p, into.max))
    into.max = p;
  if (earlier(p, into.first))
    into.first = p;
  if (earlier(into.last, p))
    into.last = p;
}
function summaryOfPoint(p) {
  return { count: 1, sum: p.value, min: p, max: p, first: p, last: p };
}
var earlier, lower, higher;
var init_bucket_summary = __esm({
  "dist/domain/bucket-summary.js"() {
    "use strict";
    earlier = (a, b) => a.ts < b.ts || a.ts === b.ts && a.id < b.id;
    lower = (a, b) => a.value < b.value || a.value === b.value && earlier(a, b);
    higher = (a, b) => a.value > b.value || a.value === b.value && earlier(a, b);
  }
});

// dist/domain/bucket-fold.js
function bucketsOf(rows, size) {
  const byStart = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const start = bucketStart(row.timestamp, size);
    const bucket = byStart.get(start);
    if (bucket)
      add(bucket, row);
    else
      byStart.set(start, { start, ...summaryOf(row) });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}
function foldBuckets(buckets, size) {
  const out = [];
  const byStart = /* @__PURE__ */ new Map();
  for (const b of buckets) {
    const start = bucketStart(b.start, size);
    const into = byStart.get(start);
    if (into)
      byStart.set(start, { start, ...merge(into, b) });
    else
      byStart.set(start, { ...b, start });
  }
  out.push(...byStart.values());
  return out.sort((a, b) => a.start - b.start);
}
function bucketStream(sizes, emit) {
  const open2 = /* @__PURE__ */ new Map();
  return {
    push(row) {
      for (const size of sizes) {
        const start = bucketStart(row.timestamp, size);
        const bucket = open2.get(size);
        if (bucket && bucket.start === start)
          add(bucket, row);
        else {
          if (bucket)
            emit(size, bucket);
          open2.set(size, { start, ...summaryOf(row) });
        }
      }
    },
    end() {
      for (const [size, bucket] of open2)
        emit(size, bucket);
      open2.clear();
    }
  };
}
var init_bucket_fold = __esm({
  "dist/domain/bucket-fold.js"() {
    "use strict";
    init_bucket_sizes();
    init_bucket_summary();
  }
});

// dist/store/history-sql.js
import { randomInt } from "node:crypto";
function comesBefore(order, a, b) {
  const [[field, direction], ...rest] = order;
  const less = `${a(field)} ${direction === "asc" ? "<" : ">"} ${b(field)}`;
  return rest.length === 0 ? less : `(${less} or (${a(field)} = ${b(field)} and ${comesBefore(rest, a, b)}))`;
}
function pointsByArrayAgg(columns3) {
  return POINTS.flatMap((point) => {
    const order = POINT_ORDERS[point].map(([f, direction]) => columns3[f] + (direction === "desc" ? " desc" : "")).join(", ");
    return FIELDS.map((f) => `(array_agg(${columns3[f]} order by ${order}))[1] as ${point}_${f}`);
  }).join(", ");
}
function pointsByArrayExtremes(columns3, aliases) {
  const layouts = POINTS.map((point) => {
    const order = POINT_ORDERS[point];
    const leading = order[0][1];
    const elements = [...order.map(([f, direction]) => ({ f, negated: direction !== leading }))];
    for (const f of FIELDS)
      if (!elements.some((e) => e.f === f))
        elements.push({ f, negated: false });
    return { alias: aliases[point], aggregate: leading === "asc" ? "min" : "max", elements };
  });
  const aggregates = layouts.map(({ alias, aggregate, elements }) => `${aggregate}(array[${elements.map((e) => (e.negated ? "-" : "") + columns3[e.f]).join(", ")}]) as ${alias}`).join(",\n        ");
  const fields = layouts.map(({ alias, elements }) => FIELDS.map((f) => {
    const i = elements.findIndex((e) => e.f === f);
    return `(${elements[i].negated ? "-" : ""}${alias}[${i + 1}])::${f === "value" ? "float8" : "int8"}`;
  }).join(", ")).join(",\n      ");
  return { aggregates, fields };
}
function bucketRow(sensorId, size, b, stamp) {
  return {
    sensor_id: sensorId,
    size_ms: size,
    start_ms: b.start,
    row_count: b.count,
    value_sum: b.sum,
    min_value: b.min.value,
    min_ts: b.min.ts,
    min_id: b.min.id,
    max_value: b.max.value,
    max_ts: b.max.ts,
    max_id: b.max.id,
    first_value: b.first.value,
    first_ts: b.first.ts,
    first_id: b.first.id,
    last_value: b.last.value,
    last_ts: b.last.ts,
    last_id: b.last.id,
    ...stamp === void 0 ? {} : { stamp }
  };
}
function bucketOf(r) {
  return {
    start: Number(r.start_ms),
    count: Number(r.row_count),
    sum: r.value_sum,
    min: { value: r.min_value, ts: Number(r.min_ts), id: Number(r.min_id) },
    max: { value: r.max_value, ts: Number(r.max_ts), id: Number(r.max_id) },
    first: { value: r.first_value, ts: Number(r.first_ts), id: Number(r.first_id) },
    last: { value: r.last_value, ts: Number(r.last_ts), id: Number(r.last_id) }
  };
}
var BUCKET_COLUMNS, POINT_ORDERS, POINTS, FIELDS, MERGE_ON_CONFLICT, STAMPED_BUCKET_COLUMNS, newBucketStamp, BUCKET_READS, bucketReadSql, dayStampsSql;
var init_history_sql = __esm({
  "dist/store/history-sql.js"() {
    "use strict";
    BUCKET_COLUMNS = [
      "sensor_id",
      "size_ms",
      "start_ms",
      "row_count",
      "value_sum",
      "min_value",
      "min_ts",
      "min_id",
      "max_value",
      "max_ts",
      "max_id",
      "first_value",
      "first_ts",
      "first_id",
      "last_value",
      "last_ts",
      "last_id"
    ];
    POINT_ORDERS = {
      min: [
        ["value", "asc"],
        ["ts", "asc"],
        ["id", "asc"]
      ],
      max: [
        ["value", "desc"],
        ["ts", "asc"],
        ["id", "asc"]
      ],
      first: [
        ["ts", "asc"],
        ["id", "asc"]
      ],
      last: [
        ["ts", "desc"],
        ["id", "desc"]
      ]
    };
    POINTS = Object.keys(POINT_ORDERS);
    FIELDS = ["value", "ts", "id"];
    MERGE_ON_CONFLICT = "on conflict (sensor_id, size_ms, start_ms) do update set " + [
      "row_count = b.row_count + excluded.row_count",
      "value_sum = b.value_sum + excluded.value_sum",
      ...POINTS.map((point) => {
        const newer = comesBefore(POINT_ORDERS[point], (f) => `excluded.${point}_${f}`, (f) => `b.${point}_${f}`);
        return FIELDS.map((f) => `${point}_${f} = case when ${newer} then excluded.${point}_${f} else b.${point}_${f} end`).join(", ");
      }),
      "stamp = excluded.stamp"
    ].join(", ");
    STAMPED_BUCKET_COLUMNS = [...BUCKET_COLUMNS, "stamp"];
    newBucketStamp = () => randomInt(1, 2 ** 48 - 1);
    BUCKET_READS = {
      whole: BUCKET_COLUMNS.slice(2),
      values: ["start_ms", "row_count", "value_sum", "min_value", "max_value", "first_value", "last_value"],
      extremes: ["start_ms", "row_count", "min_value", "min_ts", "min_id", "max_value", "max_ts", "max_id"]
    };
    bucketReadSql = (read) => `select ${BUCKET_READS[read].join(", ")} from history_buckets where sensor_id = ? and size_ms = ? and start_ms >= ? and start_ms < ? order by start_ms`;
    dayStampsSql = "select start_ms, stamp from history_buckets where sensor_id = ? and size_ms = ? and start_ms >= ? and start_ms < ? order by start_ms";
  }
});

// dist/store/repositories/measurements.js
function measurementRepository(db, dialect) {
  function inWindow(sensorId, window) {
    let query = db.selectFrom("measurements").where("sensor_id", "=", sensorId);
    if (window.start !== void 0)
      query = query.where("timestamp", ">=", dialect.at(window.start));
    if (window.end !== void 0)
      query = query.where("timestamp", window.endInclusive ? "<=" : "<", dialect.at(window.end));
    return query;
  }
  function last(sensorId) {
    return db.selectFrom("measurements").select(["measurement_id", "sensor_id", "value", "timestamp"]).where("sensor_id", "=", sensorId).orderBy("timestamp", "desc").orderBy("measurement_id", "desc").limit(1).executeTakeFirst();
  }
  return {
    /** Inserts a generated series of one sensor (no ids returned: used for bulk generation). */
    insertSeries(sensorId, timestamps, values) {
      return dialect.insertSeries(db, sensorId, timestamps, values);
    },
    async deleteAll() {
      const result = await db.deleteFrom("measurements").executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    /** The newest measurement of a sensor by timestamp (ties: the highest id). */
    last,
    /**
     * The newest reading and the run of exactly equal values at the newest end of the sensor's
     * readings (API.md §14 `stuck`): how many it holds, counted up to `cap`, and when the oldest
     * of them was taken. Null without readings. Reads the newest reading, the newest one with
     * another value, and the first of the run after it: three index walks, however long the run.
     */
    async newestRun(sensorId, cap) {
      const newest = await last(sensorId);
      if (!newest)
        return null;
      const differing = await db.selectFrom("measurements").select(["measurement_id", "timestamp"]).where("sensor_id", "=", sensorId).where("value", "<>", newest.value).orderBy("timestamp", "desc").orderBy("measurement_id", "desc").limit(1).executeTakeFirst();
      let query = db.selectFrom("measurements").select(["measurement_id", "timestamp"]).where("sensor_id", "=", sensorId);
      if (differing) {
        const { timestamp, measurement_id } = differing;
        query = query.where((eb) => eb.or([
          eb("timestamp", ">", dialect.at(timestamp)),
          eb.and([eb("timestamp", "=", dialect.at(timestamp)), eb("measurement_id", ">", measurement_id)])
        ]));
      }
      const run = await query.orderBy("timestamp").orderBy("measurement_id").limit(cap).execute();
      return { newest, run: run.length === 0 ? { count: 1, since: newest.timestamp } : { count: run.length, since: run[0].timestamp } };
    },
    /**
     * The run of exactly equal values at the newest end of a sensor's readings (API.md §14, stuck):
     * how many it holds, counted up to 3 (all the stuck rule needs), and when its oldest was taken.
     * Null when the sensor has no reading. Reads three rows and, for a run of three, two more.
     */
    async equalRun(sensorId) {
      const newest = await db.selectFrom("measurements").select(["measurement_id", "value", "timestamp"]).where("sensor_id", "=", sensorId).orderBy("timestamp", "desc").orderBy("measurement_id", "desc").limit(3).execute();
      if (newest.length === 0)
        return null;
      const value = newest[0].value;
      const equal = newest.findIndex((r) => r.value !== value);
      if (equal !== -1 || newest.length < 3) {
        const run = equal === -1 ? newest : newest.slice(0, equal);
        return { count: run.length, since: Number(run[run.length - 1].timestamp) };
      }
      const other = await db.selectFrom("measurements").select(["measurement_id", "timestamp"]).where("sensor_id", "=", sensorId).where("value", "<>", value).orderBy("timestamp", "desc").orderBy("measurement_id", "desc").limit(1).executeTakeFirst();
      let first = db.selectFrom("measurements").select("timestamp").where("sensor_id", "=", sensorId).orderBy("timestamp").orderBy("measurement_id").limit(1);
      if (other) {
        const at = dialect.at(Number(other.timestamp));
        first = first.where((eb) => eb.or([eb("timestamp", ">", at), eb.and([eb("timestamp", "=", at), eb("measurement_id", ">", other.measurement_id)])]));
      }
      const oldest = await first.executeTakeFirstOrThrow();
      return { count: 3, since: Number(oldest.timestamp) };
    },
    /** How many measurements the window holds, and the first and last timestamps. */
    async windowSpan(sensorId, window) {
      const row = await inWindow(sensorId, window).select((eb) => [eb.fn.countAll().as("count"), eb.fn.min("timestamp").as("first"), eb.fn.max("timestamp").as("last")]).executeTakeFirstOrThrow();
      return { count: Number(row.count), first: Number(row.first), last: Number(row.last) };
    },
    /**
     * Downsampling inside the store: each bucket of `layout` keeps its lowest and its highest
     * measurement, in time order, so peaks and troughs survive and only those rows leave the
     * database. The window is read in slices of about ROWS_PER_SLICE rows (`rows` is how many it
     * holds), so no single query holds the store for long.
     */
    async extremesPerBucket(sensorId, window, layout, rows) {
      const out = [];
      for (const slice of layout.slices(rows, ROWS_PER_SLICE)) {
        const inSlice = inWindow(sensorId, window).where("timestamp", ">=", dialect.at(slice.start)).where("timestamp", "<", dialect.at(slice.end));
        out.push(...await dialect.extremesPerBucket(db, inSlice, layout));
      }
      return out;
    },
    /**
     * The window's measurements in time order (ties by id), read page by page so that a long
     * series never sits in memory whole and other queries run between pages.
     */
    async *walkWindow(sensorId, window) {
      let after;
      for (; ; ) {
        let query = inWindow(sensorId, after ? restAfter(window, after.timestamp) : window).select([
          "measurement_id",
          "sensor_id",
          "value",
          dialect.timestampMs().as("timestamp")
        ]);
        if (after) {
          const { timestamp, measurement_id } = after;
          query = query.where((eb) => eb.or([
            eb("timestamp", ">", dialect.at(timestamp)),
            eb.and([eb("timestamp", "=", dialect.at(timestamp)), eb("measurement_id", ">", measurement_id)])
          ]));
        }
        const page = await query.orderBy("measurements.timestamp").orderBy("measurement_id").limit(ROWS_PER_PAGE).execute();
        if (page.length > 0)
          yield page;
        if (page.length < ROWS_PER_PAGE)
          return;
        after = page[page.length - 1];
      }
    },
    /** The measurements whose ids lie in these inclusive ranges, by id (the order they were stored in). */
    byIdRanges(ranges) {
      if (ranges.length === 0)
        return Promise.resolve([]);
      return db.selectFrom("measurements").select(["measurement_id", "sensor_id", "value", dialect.timestampMs().as("timestamp")]).where((eb) => eb.or(ranges.map(([first, last2]) => eb.between("measurement_id", first, last2)))).orderBy("measurement_id").execute();
    },
    /** Refreshes the planner's statistics after a bulk load (where the store keeps any). */
    analyze() {
      return dialect.analyze(db, "measurements");
    }
  };
}
var ROWS_PER_SLICE, ROWS_PER_PAGE;
var init_measurements = __esm({
  "dist/store/repositories/measurements.js"() {
    "use strict";
    init_time_window();
    ROWS_PER_SLICE = 1e5;
    ROWS_PER_PAGE = 5e3;
  }
});

// dist/store/repositories/history.js
import { sql as sql6 } from "kysely";
function historyRepository(db, dialect, { stamped = true } = {}) {
  const measurements = measurementRepository(db, dialect);
  const stampOfWrite = () => stamped ? newBucketStamp() : void 0;
  async function insertBuckets(rows) {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await db.insertInto("history_buckets").values(rows.slice(i, i + ROWS_PER_INSERT)).execute();
    }
  }
  const inRange = (sensorId, size, from, to) => db.selectFrom("history_buckets").where("sensor_id", "=", sensorId).where("size_ms", "=", size).where("start_ms", ">=", from).where("start_ms", "<", to).orderBy("start_ms");
  async function buckets(sensorId, size, from, to) {
    return (await inRange(sensorId, size, from, to).selectAll().execute()).map(bucketOf);
  }
  async function write(sensorId, size, start, bucket, stamp) {
    await db.deleteFrom("history_buckets").where("sensor_id", "=", sensorId).where("size_ms", "=", size).where("start_ms", "=", start).execute();
    if (bucket)
      await insertBuckets([bucketRow(sensorId, size, bucket, stamp)]);
  }
  async function retiredBefore() {
    const row = await db.selectFrom("settings").select("value").where("key", "=", RETIRED_BEFORE_KEY).executeTakeFirst();
    return row ? Number(row.value) : -Infinity;
  }
  async function lockBuckets(keys) {
    if (dialect.kind !== "postgres" || keys.length === 0)
      return;
    const tuples = keys.map((k) => sql6`(${k.sensorId}::int, ${k.size}::int8, ${k.start}::int8)`);
    await sql6`select 1 from history_buckets where (sensor_id, size_ms, start_ms) in (${sql6.join(tuples)})
      order by sensor_id, size_ms, start_ms for update`.execute(db);
  }
  return {
    /** The kept buckets of `size` whose start lies in [from, to), in time order. */
    buckets,
    /**
     * The same as arrays of numbers (BucketRow, the columns of `read`), the shape long reads take;
     * the stores answer it from prepared statements without an object per row (see
     * sqlite/reader.ts, postgres/hot-paths.ts).
     */
    async bucketRows(read, sensorId, size, from, to) {
      const columns3 = BUCKET_READS[read];
      const rows = await inRange(sensorId, size, from, to).select(columns3).execute();
      return rows.map((r) => columns3.map((c) => Number(r[c])));
    },
    /** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
    async dayStamps(sensorId, from, to) {
      const rows = await inRange(sensorId, DAY2, from, to).select(["start_ms", "stamp"]).execute();
      return rows.map((r) => [Number(r.start_ms), Number(r.stamp)]);
    },
    /** The span the sensor's history covers, from its first measurement to just after its last; undefined without history. */
    async extent(sensorId) {
      const row = await db.selectFrom("history_buckets").select((eb) => [eb.fn.min("first_ts").as("first"), eb.fn.max("last_ts").as("last")]).where("sensor_id", "=", sensorId).where("size_ms", "=", DAY2).executeTakeFirst();
      if (!row || row.first === null || row.last === null)
        return void 0;
      return { first: Number(row.first), end: Number(row.last) + 1 };
    },
    /** Before this instant raw rows are retired (−∞: none ever were). */
    retiredBefore,
    /** Moves the retirement cutoff on (never back). */
    async retireBefore(cutoff) {
      if (cutoff <= await retiredBefore())
        return;
      await db.insertInto("settings").values({ key: RETIRED_BEFORE_KEY, value: String(cutoff) }).onConflict((oc) => oc.column("key").doUpdateSet({ value: String(cutoff) })).execute();
    },
    /**
     * Raw rows went away (deleted one by one): the buckets that held them are computed again —
     * the 5-minute bucket from the raw rows that remain, the hour from its 5-minute buckets, the
     * day from its hours. Buckets before the retirement cutoff are the permanent record and stay.
     */
    async measurementsRemoved(removed) {
      const cutoff = await retiredBefore();
      const keysBySize = new Map(KEPT_SIZES.map((s) => [s, /* @__PURE__ */ new Map()]));
      for (const row of removed) {
        if (row.timestamp < cutoff)
          continue;
        for (const size of KEPT_SIZES) {
          const start = bucketStart(row.timestamp, size);
          keysBySize.get(size)?.set(`${row.sensor_id}:${start}`, { sensorId: row.sensor_id, size, start });
        }
      }
      const all = [...keysBySize.values()].flatMap((m) => [...m.values()]);
      all.sort((a, b) => a.sensorId - b.sensorId || a.size - b.size || a.start - b.start);
      await lockBuckets(all);
      const stamp = stampOfWrite();
      for (const { sensorId, start } of keysBySize.get(FIVE_MINUTES)?.values() ?? []) {
        const rows = [];
        for await (const page of measurements.walkWindow(sensorId, { start, end: start + FIVE_MINUTES, endInclusive: false }))
          rows.push(...page);
        await write(sensorId, FIVE_MINUTES, start, bucketsOf(rows, FIVE_MINUTES)[0], stamp);
      }
      for (const [size, finer] of [
        [HOUR2, FIVE_MINUTES],
        [DAY2, HOUR2]
      ]) {
        for (const { sensorId, start } of keysBySize.get(size)?.values() ?? []) {
          await write(sensorId, size, start, foldBuckets(await buckets(sensorId, finer, start, start + size), size)[0], stamp);
        }
      }
    },
    /** Every bucket of these sensors (the sensors are being deleted). */
    async sensorsRemoved(sensorIds) {
      if (sensorIds.length > 0)
        await db.deleteFrom("history_buckets").where("sensor_id", "in", [...sensorIds]).execute();
    },
    /**
     * Every bucket (every measurement is being replaced): history starts afresh, retirement
     * cutoff included, so the new rows get their buckets whatever their age (retention retires
     * the old ones again at its next pass, keeping their buckets).
     */
    async removeAll() {
      await db.deleteFrom("history_buckets").execute();
      await db.deleteFrom("settings").where("key", "=", RETIRED_BEFORE_KEY).execute();
    },
    /**
     * Builds a sensor's buckets in [from, to) (whole days; undefined: unbounded) from its raw
     * rows, replacing what was there, walking the rows in time order with flat memory.
     * Buckets before the retirement cutoff are left as they are.
     */
    async rebuild(sensorId, from, to, progress) {
      const cutoff = await retiredBefore();
      const start = Number.isFinite(cutoff) ? Math.max(from ?? -Infinity, cutoff) : from;
      let del = db.deleteFrom("history_buckets").where("sensor_id", "=", sensorId);
      if (start !== void 0)
        del = del.where("start_ms", ">=", start);
      if (to !== void 0)
        del = del.where("start_ms", "<", to);
      await del.execute();
      const pending = [];
      const done = { rows: 0, buckets: 0 };
      const stamp = stampOfWrite();
      const stream = bucketStream(KEPT_SIZES, (size, bucket) => pending.push(bucketRow(sensorId, size, bucket, stamp)));
      for await (const page of measurements.walkWindow(sensorId, { start, end: to, endInclusive: false })) {
        for (const row of page)
          stream.push(row);
        done.rows += page.length;
        if (pending.length >= ROWS_PER_INSERT) {
          done.buckets += pending.length;
          await insertBuckets(pending.splice(0));
          progress?.(done);
        }
      }
      stream.end();
      done.buckets += pending.length;
      await insertBuckets(pending.splice(0));
      return done;
    },
    /** Deletes up to `limit` of a sensor's raw rows older than `cutoff`; how many it deleted. */
    async retireRaw(sensorId, cutoff, limit) {
      const oldest = db.selectFrom("measurements").select("measurement_id").where("sensor_id", "=", sensorId).where("timestamp", "<", dialect.at(cutoff)).orderBy("timestamp").limit(limit);
      const result = await db.deleteFrom("measurements").where("measurement_id", "in", oldest).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    /** Deletes up to `limit` of a sensor's 5-minute buckets older than `cutoff`; how many it deleted. */
    async retireFiveMinute(sensorId, cutoff, limit) {
      const oldest = db.selectFrom("history_buckets").select("start_ms").where("sensor_id", "=", sensorId).where("size_ms", "=", FIVE_MINUTES).where("start_ms", "<", cutoff).orderBy("start_ms").limit(limit);
      const result = await db.deleteFrom("history_buckets").where("sensor_id", "=", sensorId).where("size_ms", "=", FIVE_MINUTES).where("start_ms", "in", oldest).executeTakeFirst();
      return Number(result.numDeletedRows);
    }
  };
}
var RETIRED_BEFORE_KEY, ROWS_PER_INSERT;
var init_history = __esm({
  "dist/store/repositories/history.js"() {
    "use strict";
    init_bucket_fold();
    init_bucket_sizes();
    init_history_sql();
    init_measurements();
    RETIRED_BEFORE_KEY = "history.raw_retired_before";
    ROWS_PER_INSERT = 1e3;
  }
});

// dist/store/migrations/history-buckets-sql.js
import { sql as sql7 } from "kysely";
function sqliteFiveMinutes(sensorId, from, to) {
  const size = FIVE_MINUTES;
  const unit = 2 ** ID_BITS;
  const mask = unit - 1;
  const pointOfValue = (value) => sql7.raw(`case when g.n = 1 then g.fk else (select min((m.timestamp - g.start) * ${unit} + m.measurement_id) from measurements m where m.sensor_id = g.sensor_id and m.timestamp >= g.start and m.timestamp < g.start + ${size} and m.value = g.${value}) end`);
  const valueOf = (key) => sql7.raw(`case when n = 1 then lo else (select value from measurements where measurement_id = ${key} & ${mask}) end`);
  const point = (key) => sql7.raw(`start + (${key} >> ${ID_BITS}), ${key} & ${mask}`);
  return sql7`insert into history_buckets (${columns})
    with g as materialized (
      select sensor_id, start, count(*) as n, sum(value) as s, min(value) as lo, max(value) as hi,
        min(${sql7.raw(`(timestamp - start) * ${unit}`)} + measurement_id) as fk,
        max(${sql7.raw(`(timestamp - start) * ${unit}`)} + measurement_id) as lk
      from (
        select sensor_id, value, measurement_id, timestamp, ${floorTo("timestamp", size)} as start
        from measurements where sensor_id = ${sensorId} and timestamp >= ${from} and timestamp < ${to}
      )
      group by sensor_id, start
    ),
    k as materialized (select g.*, ${pointOfValue("lo")} as mk, ${pointOfValue("hi")} as xk from g)
    select sensor_id, ${size}, start, n, s,
      lo, ${point("mk")}, hi, ${point("xk")},
      ${valueOf("fk")}, ${point("fk")}, ${valueOf("lk")}, ${point("lk")}
    from k`;
}
function postgresFiveMinutes(sensorId, from, to) {
  const size = FIVE_MINUTES;
  const at = (ms) => sql7`timestamptz 'epoch' + ${ms}::int8 * interval '1 millisecond'`;
  const points = pointsByArrayExtremes({ value: "value", ts: "ms", id: "measurement_id" }, { min: "lo", max: "hi", first: "fp", last: "lp" });
  return sql7`insert into history_buckets (${columns})
    select sensor_id, ${size}::int8, start, n, s,
      ${sql7.raw(points.fields)}
    from (
      select sensor_id, start, count(*) as n, sum(value) as s,
        ${sql7.raw(points.aggregates)}
      from (
        select sensor_id, value, measurement_id::float8 as measurement_id, ms::float8 as ms, ${floorTo("ms", size)} as start
        from (
          select sensor_id, value, measurement_id, (extract(epoch from timestamp) * 1000)::int8 as ms
          from measurements where sensor_id = ${sensorId} and timestamp >= ${at(from)} and timestamp < ${at(to)}
        ) as r
      ) as p
      group by sensor_id, start
    ) as g`;
}
function fiveMinuteBucketsSql(kind, sensorId, from, to) {
  return kind === "sqlite" ? sqliteFiveMinutes(sensorId, from, to) : postgresFiveMinutes(sensorId, from, to);
}
function foldedBucketsSql(size, finer, sensorId, from, to) {
  const child = (alias, start) => sql7.raw(`join history_buckets ${alias} on ${alias}.sensor_id = g.sensor_id and ${alias}.size_ms = ${finer} and ${alias}.start_ms = ${start}`);
  const earliestHolding = (column, value) => `(select min(c.start_ms) from history_buckets c where c.sensor_id = g.sensor_id and c.size_ms = ${finer} and c.start_ms >= g.start and c.start_ms < g.start + ${size} and c.${column} = g.${value})`;
  return sql7`insert into history_buckets (${columns})
    with g as materialized (
      select sensor_id, start, sum(row_count) as n, sum(value_sum) as s, min(min_value) as lo, max(max_value) as hi,
        min(start_ms) as fs, max(start_ms) as ls
      from (
        select sensor_id, start_ms, row_count, value_sum, min_value, max_value, ${floorTo("start_ms", size)} as start
        from history_buckets where sensor_id = ${sensorId} and size_ms = ${finer} and start_ms >= ${from} and start_ms < ${to}
      ) as b
      group by sensor_id, start
    )
    select g.sensor_id, cast(${size} as integer), g.start, g.n, g.s,
      mn.min_value, mn.min_ts, mn.min_id, mx.max_value, mx.max_ts, mx.max_id,
      f.first_value, f.first_ts, f.first_id, l.last_value, l.last_ts, l.last_id
    from g
    ${child("mn", earliestHolding("min_value", "lo"))}
    ${child("mx", earliestHolding("max_value", "hi"))}
    ${child("f", "g.fs")}
    ${child("l", "g.ls")}`;
}
var ID_BITS, PACKED_ID_LIMIT, columns, floorTo;
var init_history_buckets_sql = __esm({
  "dist/store/migrations/history-buckets-sql.js"() {
    "use strict";
    init_bucket_sizes();
    init_history_sql();
    ID_BITS = 40;
    PACKED_ID_LIMIT = 2 ** ID_BITS;
    columns = sql7.raw(BUCKET_COLUMNS.join(", "));
    floorTo = (x, size) => sql7.raw(`(${x} - ((${x} % ${size}) + ${size}) % ${size})`);
  }
});

// dist/store/migrations/010_history_buckets.js
import { sql as sql8 } from "kysely";
async function extents(db, dialect) {
  const rows = await db.selectFrom("measurements").select((eb) => [
    "sensor_id",
    eb.fn.countAll().as("n"),
    eb.fn.min(dialect.timestampMs()).as("first"),
    eb.fn.max(dialect.timestampMs()).as("last")
  ]).groupBy("sensor_id").orderBy("sensor_id").execute();
  return rows.map((r) => ({
    sensorId: r.sensor_id,
    rows: Number(r.n),
    from: bucketStart(Number(r.first), DAY2),
    to: bucketStart(Number(r.last), DAY2) + DAY2
  }));
}
function slices({ rows, from, to }) {
  const days = (to - from) / DAY2;
  const daysPerSlice = Math.max(1, Math.floor(days * ROWS_PER_SLICE2 / Math.max(1, rows)));
  const out = [];
  for (let start = from; start < to; start += daysPerSlice * DAY2)
    out.push([start, Math.min(to, start + daysPerSlice * DAY2)]);
  return out;
}
function historyBucketsMigration(dialect, log) {
  return {
    async up(untyped) {
      const db = untyped;
      const int8 = dialect.schema.bigId;
      await db.schema.createTable("history_buckets").addColumn("sensor_id", "integer", (c) => c.notNull().references("sensors.sensor_id")).addColumn("size_ms", "integer", (c) => c.notNull()).addColumn("start_ms", int8, (c) => c.notNull()).addColumn("row_count", int8, (c) => c.notNull()).addColumn("value_sum", dialect.schema.float, (c) => c.notNull()).addColumn("min_value", dialect.schema.float, (c) => c.notNull()).addColumn("min_ts", int8, (c) => c.notNull()).addColumn("min_id", int8, (c) => c.notNull()).addColumn("max_value", dialect.schema.float, (c) => c.notNull()).addColumn("max_ts", int8, (c) => c.notNull()).addColumn("max_id", int8, (c) => c.notNull()).addColumn("first_value", dialect.schema.float, (c) => c.notNull()).addColumn("first_ts", int8, (c) => c.notNull()).addColumn("first_id", int8, (c) => c.notNull()).addColumn("last_value", dialect.schema.float, (c) => c.notNull()).addColumn("last_ts", int8, (c) => c.notNull()).addColumn("last_id", int8, (c) => c.notNull()).addPrimaryKeyConstraint("history_buckets_key", ["sensor_id", "size_ms", "start_ms"]).execute();
      const sensors = await extents(db, dialect);
      const total = sensors.reduce((n, s) => n + s.rows, 0);
      if (total === 0)
        return;
      log({ sensors: sensors.length, rows: total }, "history buckets: building for the existing measurements");
      const began = Date.now();
      const maxId = Number((await db.selectFrom("measurements").select((eb) => eb.fn.max("measurement_id").as("id")).executeTakeFirstOrThrow()).id);
      const inStore = dialect.kind === "postgres" || maxId < PACKED_ID_LIMIT;
      const history = historyRepository(db, dialect, { stamped: false });
      let done = 0;
      let lastReport = began;
      for (const sensor of sensors) {
        for (const [from, to] of inStore ? slices(sensor) : [[sensor.from, sensor.to]]) {
          if (inStore) {
            await fiveMinuteBucketsSql(dialect.kind, sensor.sensorId, from, to).execute(db);
            await foldedBucketsSql(HOUR2, FIVE_MINUTES, sensor.sensorId, from, to).execute(db);
            await foldedBucketsSql(DAY2, HOUR2, sensor.sensorId, from, to).execute(db);
          } else {
            await history.rebuild(sensor.sensorId, from, to);
          }
          done += await rowsIn(db, sensor.sensorId, from, to);
          if (Date.now() - lastReport >= PROGRESS_EVERY_MS) {
            lastReport = Date.now();
            log({ rows: done, of: total, percent: Math.floor(100 * done / total) }, "history buckets: progress");
          }
        }
      }
      log({ rows: done, ms: Date.now() - began }, "history buckets: built");
    },
    async down(db) {
      await sql8`drop table if exists history_buckets`.execute(db);
    }
  };
}
async function rowsIn(db, sensorId, from, to) {
  const row = await db.selectFrom("history_buckets").select((eb) => eb.fn.sum("row_count").as("n")).where("sensor_id", "=", sensorId).where("size_ms", "=", DAY2).where("start_ms", ">=", from).where("start_ms", "<", to).executeTakeFirst();
  return Number(row?.n ?? 0);
}
var ROWS_PER_SLICE2, PROGRESS_EVERY_MS;
var init_history_buckets = __esm({
  "dist/store/migrations/010_history_buckets.js"() {
    "use strict";
    init_bucket_sizes();
    init_history();
    init_history_buckets_sql();
    ROWS_PER_SLICE2 = 5e5;
    PROGRESS_EVERY_MS = 2e3;
  }
});

// dist/store/migrations/011_measurements_check.js
import { sql as sql9 } from "kysely";
function measurementsCheckMigration(kind, log) {
  return {
    async up(db) {
      if (kind === "postgres")
        return;
      const { rows } = await sql9`select count(*) as n from measurements`.execute(db);
      const count = Number(rows[0]?.n ?? 0);
      if (count > 0)
        log({ rows: count }, "measurements: rebuilding the table with its finite-value check (once)");
      const started = Date.now();
      await sql9`create table measurements_checked (
        measurement_id integer primary key,
        sensor_id integer not null references sensors (sensor_id),
        value real not null check (abs(value) <> 9e999),
        timestamp integer not null
      )`.execute(db);
      await sql9`insert into measurements_checked (measurement_id, sensor_id, value, timestamp)
        select measurement_id, sensor_id, value, timestamp from measurements order by measurement_id`.execute(db);
      await sql9`drop table measurements`.execute(db);
      await sql9`alter table measurements_checked rename to measurements`.execute(db);
      await sql9`create index measurements_by_sensor_time on measurements (sensor_id, timestamp, measurement_id)`.execute(db);
      if (count > 0)
        log({ rows: count, ms: Date.now() - started }, "measurements: table rebuilt");
    },
    async down() {
    }
  };
}
var init_measurements_check = __esm({
  "dist/store/migrations/011_measurements_check.js"() {
    "use strict";
  }
});

// dist/store/migrations/020_alerts.js
import { sql as sql10 } from "kysely";
function alertsMigration({ time, float, bigId, identity }) {
  return {
    async up(db) {
      await db.schema.createTable("alerts").addColumn("alert_id", "integer", identity).addColumn("sensor_id", "integer", (c) => c.notNull().references("sensors.sensor_id")).addColumn("kind", "text", (c) => c.notNull()).addColumn("severity", "text", (c) => c.notNull()).addColumn("state", "text", (c) => c.notNull()).addColumn("raised_at", time, (c) => c.notNull()).addColumn("cleared_at", time).addColumn("acknowledged_at", time).addColumn("acknowledged_by", "text").addColumn("value", float).addColumn("peak", float).addColumn("last_value", float).execute();
      await sql10`create unique index alerts_one_active on alerts (sensor_id, kind) where state = 'active'`.execute(db);
      await db.schema.createIndex("alerts_by_sensor").on("alerts").columns(["sensor_id", "alert_id"]).execute();
      await db.schema.createIndex("alerts_by_state").on("alerts").columns(["state", "alert_id"]).execute();
      await db.schema.createTable("alert_levels").addColumn("sensor_id", "integer", (c) => c.primaryKey().references("sensors.sensor_id")).addColumn("level", "text").addColumn("ok_since", time).execute();
      await db.schema.createTable("alert_notifications").addColumn("notification_id", bigId, identity).addColumn("alert_id", "integer", (c) => c.notNull()).addColumn("url", "text", (c) => c.notNull()).addColumn("idempotency_key", "text", (c) => c.notNull()).addColumn("payload", "text", (c) => c.notNull()).addColumn("created_at", time, (c) => c.notNull()).addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0)).addColumn("next_attempt_at", time, (c) => c.notNull()).addColumn("last_error", "text").execute();
      await db.schema.createIndex("alert_notifications_by_chain").on("alert_notifications").columns(["url", "alert_id", "notification_id"]).execute();
    },
    async down(db) {
      await sql10`drop table if exists alert_notifications`.execute(db);
      await sql10`drop table if exists alert_levels`.execute(db);
      await sql10`drop table if exists alerts`.execute(db);
    }
  };
}
var init_alerts = __esm({
  "dist/store/migrations/020_alerts.js"() {
    "use strict";
  }
});

// dist/store/migrations/021_bucket_stamps.js
import { sql as sql11 } from "kysely";
function bucketStampsMigration() {
  return {
    async up(db) {
      await db.schema.alterTable("history_buckets").addColumn("stamp", "bigint", (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db) {
      await sql11`alter table history_buckets drop column stamp`.execute(db);
    }
  };
}
var init_bucket_stamps = __esm({
  "dist/store/migrations/021_bucket_stamps.js"() {
    "use strict";
  }
});

// dist/store/migrations/022_alert_calm_since.js
import { sql as sql12 } from "kysely";
function alertCalmSinceMigration({ time }) {
  return {
    async up(db) {
      await db.schema.alterTable("alert_levels").addColumn("calm_since", time).execute();
    },
    async down(db) {
      await sql12`alter table alert_levels drop column calm_since`.execute(db);
    }
  };
}
var init_alert_calm_since = __esm({
  "dist/store/migrations/022_alert_calm_since.js"() {
    "use strict";
  }
});

// dist/store/migrations/030_dosing_safety.js
import { sql as sql13 } from "kysely";
function dosingSafetyMigration({ time, float, bool, identity }) {
  return {
    async up(db) {
      const actuatorColumns = [
        ["max_doses_per_hour", "integer"],
        ["max_seconds_per_day", float],
        ["min_response", float, (c) => c.notNull().defaultTo(0)],
        ["response_delay", float],
        ["lockout_after", "integer", (c) => c.defaultTo(20)],
        ["controller_timeout", float],
        ["lockout_since", time],
        ["lockout_reason", "text"],
        ["unanswered_streak", "integer", (c) => c.notNull().defaultTo(0)]
      ];
      for (const [name, type, build] of actuatorColumns) {
        await db.schema.alterTable("actuators").addColumn(name, type, build ?? ((c) => c)).execute();
      }
      for (const name of ["valid_min", "valid_max", "stale_after", "stuck_after"]) {
        await db.schema.alterTable("sensors").addColumn(name, float).execute();
      }
      await db.schema.alterTable("prototypes").addColumn("paused_until", time).execute();
      await db.schema.createTable("actuator_interlocks").addColumn("actuator_id", "integer", (c) => c.notNull().references("actuators.actuator_id").onDelete("cascade")).addColumn("position", "integer", (c) => c.notNull()).addColumn("sensor_id", "integer", (c) => c.notNull().references("sensors.sensor_id")).addColumn("block_below", float).addColumn("block_above", float).addPrimaryKeyConstraint("actuator_interlocks_key", ["actuator_id", "position"]).execute();
      await db.schema.createIndex("actuator_interlocks_by_sensor").on("actuator_interlocks").columns(["sensor_id", "actuator_id"]).execute();
      await db.schema.createTable("activations").addColumn("activation_id", "integer", identity).addColumn("actuator_id", "integer", (c) => c.notNull().references("actuators.actuator_id").onDelete("cascade")).addColumn("activated_at", time, (c) => c.notNull()).addColumn("duration", float, (c) => c.notNull()).addColumn("value_before", float).addColumn("answered", bool).execute();
      await db.schema.createIndex("activations_by_actuator_time").on("activations").columns(["actuator_id", "activated_at"]).execute();
    },
    async down(db) {
      await sql13`drop table if exists activations`.execute(db);
      await sql13`drop table if exists actuator_interlocks`.execute(db);
      await sql13`alter table prototypes drop column paused_until`.execute(db);
      for (const name of ["valid_min", "valid_max", "stale_after", "stuck_after"]) {
        await sql13`alter table sensors drop column ${sql13.ref(name)}`.execute(db);
      }
      for (const name of [
        "max_doses_per_hour",
        "max_seconds_per_day",
        "min_response",
        "response_delay",
        "lockout_after",
        "controller_timeout",
        "lockout_since",
        "lockout_reason",
        "unanswered_streak"
      ]) {
        await sql13`alter table actuators drop column ${sql13.ref(name)}`.execute(db);
      }
    }
  };
}
var init_dosing_safety = __esm({
  "dist/store/migrations/030_dosing_safety.js"() {
    "use strict";
  }
});

// dist/store/migrations/031_alert_subjects.js
import { sql as sql14 } from "kysely";
function alertSubjectsMigration(kind) {
  return {
    async up(db) {
      if (kind === "postgres") {
        await sql14`alter table alerts alter column sensor_id drop not null`.execute(db);
        await sql14`alter table alerts add column actuator_id integer references actuators (actuator_id) on delete cascade`.execute(db);
        await sql14`alter table alerts add constraint alerts_kind check (kind in (${KIND_LIST}))`.execute(db);
      } else {
        const { rows } = await sql14`select seq from sqlite_sequence where name = 'alerts'`.execute(db);
        await sql14`create table alerts_subjects (
          alert_id integer primary key autoincrement,
          sensor_id integer references sensors (sensor_id),
          actuator_id integer references actuators (actuator_id) on delete cascade,
          kind text not null check (kind in (${KIND_LIST})),
          severity text not null,
          state text not null,
          raised_at integer not null,
          cleared_at integer,
          acknowledged_at integer,
          acknowledged_by text,
          value real,
          peak real,
          last_value real
        )`.execute(db);
        await sql14`insert into alerts_subjects (alert_id, sensor_id, kind, severity, state, raised_at, cleared_at,
            acknowledged_at, acknowledged_by, value, peak, last_value)
          select alert_id, sensor_id, kind, severity, state, raised_at, cleared_at,
            acknowledged_at, acknowledged_by, value, peak, last_value from alerts order by alert_id`.execute(db);
        await sql14`drop table alerts`.execute(db);
        await sql14`alter table alerts_subjects rename to alerts`.execute(db);
        const seq = Number(rows[0]?.seq ?? 0);
        await sql14`update sqlite_sequence set seq = max(seq, ${seq}) where name = 'alerts'`.execute(db);
        await sql14`create unique index alerts_one_active on alerts (sensor_id, kind) where state = 'active'`.execute(db);
        await db.schema.createIndex("alerts_by_sensor").on("alerts").columns(["sensor_id", "alert_id"]).execute();
        await db.schema.createIndex("alerts_by_state").on("alerts").columns(["state", "alert_id"]).execute();
      }
      await sql14`create unique index alerts_one_active_per_actuator on alerts (actuator_id, kind) where state = 'active' and actuator_id is not null`.execute(db);
      await sql14`create unique index alerts_one_active_of_service on alerts (kind)
        where state = 'active' and sensor_id is null and actuator_id is null`.execute(db);
    },
    async down() {
    }
  };
}
var KINDS2, KIND_LIST;
var init_alert_subjects = __esm({
  "dist/store/migrations/031_alert_subjects.js"() {
    "use strict";
    KINDS2 = [
      "low",
      "high",
      "stale",
      "invalid",
      "stuck",
      "lockout",
      "limit",
      "controller_offline",
      "backup",
      "stock_low",
      "calibration_due"
    ];
    KIND_LIST = sql14.raw(KINDS2.map((k) => `'${k}'`).join(", "));
  }
});

// dist/store/migrations/032_last_polled.js
import { sql as sql15 } from "kysely";
function lastPolledMigration({ time }) {
  return {
    async up(db) {
      await db.schema.alterTable("actuators").addColumn("last_polled", time).execute();
    },
    async down(db) {
      await sql15`alter table actuators drop column last_polled`.execute(db);
    }
  };
}
var init_last_polled = __esm({
  "dist/store/migrations/032_last_polled.js"() {
    "use strict";
  }
});

// dist/store/migrations/033_device_tokens.js
import { sql as sql16 } from "kysely";
function deviceTokensMigration({ time, identity }) {
  return {
    async up(db) {
      await db.schema.alterTable("users").addColumn("session_generation", "integer", (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createTable("device_tokens").addColumn("token_id", "integer", identity).addColumn("user_id", "integer", (c) => c.notNull().references("users.user_id").onDelete("cascade")).addColumn("name", "text", (c) => c.notNull()).addColumn("created_at", time, (c) => c.notNull()).addColumn("expires_at", time, (c) => c.notNull()).addColumn("last_used_at", time).execute();
      await db.schema.createIndex("device_tokens_by_user").on("device_tokens").columns(["user_id", "token_id"]).execute();
    },
    async down(db) {
      await sql16`drop table if exists device_tokens`.execute(db);
      await sql16`alter table users drop column session_generation`.execute(db);
    }
  };
}
var init_device_tokens = __esm({
  "dist/store/migrations/033_device_tokens.js"() {
    "use strict";
  }
});

// dist/store/migrations/034_sensor_names.js
import { sql as sql17 } from "kysely";
function sensorNamesMigration() {
  return {
    async up(db) {
      await db.schema.alterTable("sensors").addColumn("sensor_name", "text").execute();
    },
    async down(db) {
      await sql17`alter table sensors drop column sensor_name`.execute(db);
    }
  };
}
var init_sensor_names = __esm({
  "dist/store/migrations/034_sensor_names.js"() {
    "use strict";
  }
});

// dist/store/migrations/035_volumes_stock.js
import { sql as sql18 } from "kysely";
function volumesStockMigration({ time, float, identity }) {
  return {
    async up(db) {
      for (const name of ACTUATOR_COLUMNS)
        await db.schema.alterTable("actuators").addColumn(name, float).execute();
      await db.schema.alterTable("activations").addColumn("volume_ml", float).execute();
      await db.schema.createTable("refills").addColumn("refill_id", "integer", identity).addColumn("actuator_id", "integer", (c) => c.notNull().references("actuators.actuator_id").onDelete("cascade")).addColumn("refilled_at", time, (c) => c.notNull()).addColumn("stock_ml", float, (c) => c.notNull()).addColumn("author", "text").execute();
      await db.schema.createIndex("refills_by_actuator_time").on("refills").columns(["actuator_id", "refilled_at"]).execute();
    },
    async down(db) {
      await sql18`drop table if exists refills`.execute(db);
      await sql18`alter table activations drop column volume_ml`.execute(db);
      for (const name of ACTUATOR_COLUMNS)
        await sql18`alter table actuators drop column ${sql18.ref(name)}`.execute(db);
    }
  };
}
var ACTUATOR_COLUMNS;
var init_volumes_stock = __esm({
  "dist/store/migrations/035_volumes_stock.js"() {
    "use strict";
    ACTUATOR_COLUMNS = ["flow_ml_per_s", "max_ml_per_day", "stock_ml", "stock_low_ml"];
  }
});

// dist/store/migrations/036_calibrations_journal.js
import { sql as sql19 } from "kysely";
function calibrationsJournalMigration({ time, float, bool, identity }) {
  return {
    async up(db) {
      await db.schema.alterTable("sensors").addColumn("calibration_interval", float).execute();
      await db.schema.alterTable("sensors").addColumn("calibrated_at", time).execute();
      await db.schema.alterTable("sensors").addColumn("calibration_due", time).execute();
      await db.schema.createTable("calibrations").addColumn("calibration_id", "integer", identity).addColumn("sensor_id", "integer", (c) => c.notNull().references("sensors.sensor_id").onDelete("cascade")).addColumn("calibrated_at", time, (c) => c.notNull()).addColumn("points", "text", (c) => c.notNull()).addColumn("slope", float, (c) => c.notNull()).addColumn("offset", float, (c) => c.notNull()).addColumn("accepted", bool, (c) => c.notNull()).addColumn("note", "text").addColumn("author", "text").execute();
      await db.schema.createIndex("calibrations_by_sensor_time").on("calibrations").columns(["sensor_id", "calibrated_at", "calibration_id"]).execute();
      await db.schema.createTable("notes").addColumn("note_id", "integer", identity).addColumn("prototype_id", "integer", (c) => c.notNull().references("prototypes.prototype_id").onDelete("cascade")).addColumn("at", time, (c) => c.notNull()).addColumn("text", "text", (c) => c.notNull()).addColumn("author", "text").execute();
      await db.schema.createIndex("notes_by_prototype_time").on("notes").columns(["prototype_id", "at", "note_id"]).execute();
      await db.schema.createIndex("notes_by_time").on("notes").columns(["at", "note_id"]).execute();
      await db.schema.createTable("note_tags").addColumn("note_id", "integer", (c) => c.notNull().references("notes.note_id").onDelete("cascade")).addColumn("position", "integer", (c) => c.notNull()).addColumn("tag", "text", (c) => c.notNull()).addPrimaryKeyConstraint("note_tags_key", ["note_id", "position"]).execute();
      await db.schema.createIndex("note_tags_by_tag").on("note_tags").columns(["tag", "note_id"]).execute();
      await db.schema.createTable("safety_events").addColumn("event_id", "integer", identity).addColumn("kind", "text", (c) => c.notNull().check(sql19`kind in ('lockout', 'unlock', 'pause', 'resume')`)).addColumn("at", time, (c) => c.notNull()).addColumn("actuator_id", "integer", (c) => c.references("actuators.actuator_id").onDelete("cascade")).addColumn("prototype_id", "integer", (c) => c.references("prototypes.prototype_id").onDelete("cascade")).addColumn("until", time).addColumn("reason", "text").addColumn("author", "text").execute();
      await db.schema.createIndex("safety_events_by_actuator").on("safety_events").columns(["actuator_id", "at"]).execute();
      await db.schema.createIndex("safety_events_by_prototype").on("safety_events").columns(["prototype_id", "at"]).execute();
    },
    async down(db) {
      await sql19`drop table if exists safety_events`.execute(db);
      await sql19`drop table if exists note_tags`.execute(db);
      await sql19`drop table if exists notes`.execute(db);
      await sql19`drop table if exists calibrations`.execute(db);
      for (const name of ["calibration_due", "calibrated_at", "calibration_interval"]) {
        await sql19`alter table sensors drop column ${sql19.ref(name)}`.execute(db);
      }
    }
  };
}
var init_calibrations_journal = __esm({
  "dist/store/migrations/036_calibrations_journal.js"() {
    "use strict";
  }
});

// dist/store/migrations/index.js
function migrationProvider(dialect, log = () => {
}) {
  const migrations = {
    "001_core": coreMigration(dialect.schema),
    "002_token_generation": tokenGenerationMigration(),
    "003_finite_numbers": finiteNumbersMigration(dialect.kind),
    "004_no_nul": noNulMigration(dialect.kind),
    "010_history_buckets": historyBucketsMigration(dialect, log),
    "011_measurements_check": measurementsCheckMigration(dialect.kind, log),
    "020_alerts": alertsMigration(dialect.schema),
    "021_bucket_stamps": bucketStampsMigration(),
    "022_alert_calm_since": alertCalmSinceMigration(dialect.schema),
    "030_dosing_safety": dosingSafetyMigration(dialect.schema),
    "031_alert_subjects": alertSubjectsMigration(dialect.kind),
    "032_last_polled": lastPolledMigration(dialect.schema),
    "033_device_tokens": deviceTokensMigration(dialect.schema),
    "034_sensor_names": sensorNamesMigration(),
    "035_volumes_stock": volumesStockMigration(dialect.schema),
    "036_calibrations_journal": calibrationsJournalMigration(dialect.schema)
  };
  return { getMigrations: async () => migrations };
}
var init_migrations = __esm({
  "dist/store/migrations/index.js"() {
    "use strict";
    init_core();
    init_token_generation();
    init_finite_numbers();
    init_no_nul();
    init_history_buckets();
    init_measurements_check();
    init_alerts();
    init_bucket_stamps();
    init_alert_calm_since();
    init_dosing_safety();
    init_alert_subjects();
    init_last_polled();
    init_device_tokens();
    init_sensor_names();
    init_volumes_stock();
    init_calibrations_journal();
  }
});

// dist/store/repositories/actuators.js
function actuatorRepository(db, dialect) {
  const columns3 = (a) => ({
    actuator_type: a.actuator_type,
    sensor_id: a.sensor_id,
    condition_value: a.condition_value,
    activation_condition: a.activation_condition,
    activation_period: a.activation_period,
    activation_duration: a.activation_duration,
    actuator_name: a.actuator_name,
    max_doses_per_hour: a.max_doses_per_hour,
    max_seconds_per_day: a.max_seconds_per_day,
    min_response: a.min_response,
    response_delay: a.response_delay,
    lockout_after: a.lockout_after,
    controller_timeout: a.controller_timeout,
    flow_ml_per_s: a.flow_ml_per_s,
    max_ml_per_day: a.max_ml_per_day,
    stock_ml: a.stock_ml,
    stock_low_ml: a.stock_low_ml,
    enabled: dialect.bool(a.enabled),
    last_activated: dialect.time(a.last_activated)
  });
  return {
    /** Inside a transaction, locks these actuators' rows in id order (see `Dialect.lockRows`). */
    lock(actuatorIds) {
      return dialect.lockRows(db, "actuators", actuatorIds);
    },
    async get(actuatorId) {
      const row = await db.selectFrom("actuators").selectAll().where("actuator_id", "=", actuatorId).executeTakeFirst();
      return row && toActuator(row);
    },
    /**
     * Inside a transaction, the actuator with its row locked against other writers until the
     * transaction ends (see `Dialect.forUpdate`): what a write computed from the row (the stock a
     * dose leaves) reads, so that concurrent writes take turns and none is lost.
     */
    async getForUpdate(actuatorId) {
      const query = db.selectFrom("actuators").selectAll().where("actuator_id", "=", actuatorId);
      const row = await dialect.forUpdate(query).executeTakeFirst();
      return row && toActuator(row);
    },
    /** Every actuator, by actuator_id. */
    async all() {
      return (await db.selectFrom("actuators").selectAll().orderBy("actuator_id").execute()).map(toActuator);
    },
    /** The actuators whose sensor belongs to the prototype, by actuator_id. */
    async listByPrototype(prototypeId) {
      const rows = await db.selectFrom("actuators").innerJoin("sensors", "sensors.sensor_id", "actuators.sensor_id").selectAll("actuators").where("sensors.prototype_id", "=", prototypeId).orderBy("actuators.actuator_id").execute();
      return rows.map(toActuator);
    },
    async create(actuator) {
      const row = await db.insertInto("actuators").values(columns3(actuator)).returningAll().executeTakeFirstOrThrow();
      return toActuator(row);
    },
    /**
     * Writes the configuration fields. last_activated is left out: only `markActivated` moves it,
     * so a settings update can never set it back, not even to a value it read a moment before.
     */
    async update(actuator) {
      const { last_activated: _ignored, ...settings } = columns3(actuator);
      const row = await db.updateTable("actuators").set(settings).where("actuator_id", "=", actuator.actuator_id).returningAll().executeTakeFirstOrThrow();
      return toActuator(row);
    },
    /** Disables these actuators (a cascade took an interlock they relied on); answers them, by id. */
    async disable(actuatorIds) {
      if (actuatorIds.length === 0)
        return [];
      const rows = await db.updateTable("actuators").set({ enabled: dialect.bool(false) }).where("actuator_id", "in", [...actuatorIds]).returningAll().execute();
      return rows.map(toActuator).sort((a, b) => a.actuator_id - b.actuator_id);
    },
    /**
     * Locks the actuator out (API.md §14) unless it already is: a second lockout keeps the first
     * one's time and reason. Answers the actuator when this call locked it, else undefined.
     */
    async lockOut(actuatorId, since, reason2) {
      const row = await db.updateTable("actuators").set({ lockout_since: dialect.time(since), lockout_reason: reason2 }).where("actuator_id", "=", actuatorId).where("lockout_since", "is", null).returningAll().executeTakeFirst();
      return row && toActuator(row);
    },
    /** Records how many doses in a row went unanswered, as the judging counted them. */
    async setUnansweredStreak(actuatorId, streak) {
      await db.updateTable("actuators").set({ unanswered_streak: streak }).where("actuator_id", "=", actuatorId).execute();
    },
    /**
     * Clears the lockout and the count of unanswered doses. Answers the actuator, `not-locked`
     * when it was not locked out (nothing changed), undefined when it does not exist.
     */
    async unlock(actuatorId) {
      const row = await db.updateTable("actuators").set({ lockout_since: null, lockout_reason: null, unanswered_streak: 0 }).where("actuator_id", "=", actuatorId).where("lockout_since", "is not", null).returningAll().executeTakeFirst();
      if (row)
        return toActuator(row);
      const exists = await db.selectFrom("actuators").select("actuator_id").where("actuator_id", "=", actuatorId).executeTakeFirst();
      return exists ? "not-locked" : void 0;
    },
    /**
     * Writes when controllers last polled (a batch noted in memory): each actuator's `last_polled`
     * moves forward only, so a batch from a slower instance never sets it back.
     */
    async notePolled(polls) {
      for (const [actuatorId, at] of polls) {
        await db.updateTable("actuators").set({ last_polled: dialect.time(at) }).where("actuator_id", "=", actuatorId).where((eb) => eb.or([eb("last_polled", "is", null), eb("last_polled", "<", dialect.at(at))])).execute();
      }
    },
    /** A reported run: last_activated becomes `at`, and the bottle holds `stockMl` when given (what the dose left). */
    async markActivated(actuatorId, at, stockMl) {
      const row = await db.updateTable("actuators").set(stockMl === void 0 ? { last_activated: dialect.time(at) } : { last_activated: dialect.time(at), stock_ml: stockMl }).where("actuator_id", "=", actuatorId).returningAll().executeTakeFirst();
      return row && toActuator(row);
    },
    /** Sets the bottle's content (a refill); answers the actuator, undefined when it does not exist. */
    async setStock(actuatorId, stockMl) {
      const row = await db.updateTable("actuators").set({ stock_ml: stockMl }).where("actuator_id", "=", actuatorId).returningAll().executeTakeFirst();
      return row && toActuator(row);
    }
  };
}
var toActuator;
var init_actuators = __esm({
  "dist/store/repositories/actuators.js"() {
    "use strict";
    toActuator = (row) => ({ ...row, enabled: Boolean(row.enabled) });
  }
});

// dist/store/repositories/alerts.js
function alertRepository(db, dialect) {
  const withSensor2 = () => db.selectFrom("alerts").leftJoin("actuators", "actuators.actuator_id", "alerts.actuator_id").leftJoin("sensors", (join6) => join6.on((eb) => eb("sensors.sensor_id", "=", eb.fn.coalesce("alerts.sensor_id", "actuators.sensor_id")))).select(ALERT_COLUMNS);
  const headsOf = (url) => db.selectFrom("alert_notifications as n").where("n.url", "=", url).where(({ not, exists, selectFrom }) => not(exists(selectFrom("alert_notifications as p").select("p.notification_id").whereRef("p.url", "=", "n.url").whereRef("p.alert_id", "=", "n.alert_id").whereRef("p.notification_id", "<", "n.notification_id"))));
  return {
    get(alertId) {
      return withSensor2().where("alerts.alert_id", "=", alertId).executeTakeFirst();
    },
    /** Newest first. */
    list(filter) {
      let query = withSensor2();
      if (filter.state)
        query = query.where("alerts.state", "=", filter.state);
      if (filter.sensorId !== void 0)
        query = query.where("alerts.sensor_id", "=", filter.sensorId);
      if (filter.prototypeId !== void 0)
        query = query.where("sensors.prototype_id", "=", filter.prototypeId);
      if (filter.before !== void 0)
        query = query.where("alerts.alert_id", "<", filter.before);
      return query.orderBy("alerts.alert_id", "desc").limit(filter.limit).execute();
    },
    /** The active sensor alerts of some sensors (all of them when none are named), of some kinds (any when none are named), oldest first. */
    active(sensorIds, kinds) {
      let query = withSensor2().where("alerts.state", "=", "active").where("alerts.sensor_id", "is not", null);
      if (sensorIds)
        query = query.where("alerts.sensor_id", "in", sensorIds.length ? [...sensorIds] : [-1]);
      if (kinds)
        query = query.where("alerts.kind", "in", kinds.length ? [...kinds] : ["-"]);
      return query.orderBy("alerts.alert_id").execute();
    },
    /** The sensor's active alert of a kind, if any. */
    activeOfSensor(sensorId, kind) {
      return withSensor2().where("alerts.state", "=", "active").where("alerts.kind", "=", kind).where("alerts.sensor_id", "=", sensorId).executeTakeFirst();
    },
    /** The service's own active alert of a kind (no sensor, no actuator), if any. */
    activeOfService(kind) {
      return withSensor2().where("alerts.state", "=", "active").where("alerts.kind", "=", kind).where("alerts.sensor_id", "is", null).where("alerts.actuator_id", "is", null).executeTakeFirst();
    },
    /** The actuator's active alert of a kind, if any. */
    activeOfActuator(actuatorId, kind) {
      return withSensor2().where("alerts.state", "=", "active").where("alerts.kind", "=", kind).where("alerts.actuator_id", "=", actuatorId).executeTakeFirst();
    },
    /** The active alerts about actuators (of these kinds), oldest first. */
    activeOfActuators(kinds) {
      return withSensor2().where("alerts.state", "=", "active").where("alerts.actuator_id", "is not", null).where("alerts.kind", "in", kinds.length ? [...kinds] : ["-"]).orderBy("alerts.alert_id").execute();
    },
    raise(alert) {
      return db.insertInto("alerts").values({ ...alert, raised_at: dialect.time(alert.raised_at), state: "active", last_value: alert.value }).returningAll().executeTakeFirstOrThrow();
    },
    change(alertId, change) {
      const { cleared_at, ...rest } = change;
      return db.updateTable("alerts").set({ ...rest, ...cleared_at === void 0 || cleared_at === null ? {} : { cleared_at: dialect.time(cleared_at) } }).where("alert_id", "=", alertId).returningAll().executeTakeFirstOrThrow();
    },
    /** Records the first acknowledgement; undefined when the alert does not exist or was acknowledged already. */
    async acknowledge(alertId, at, by) {
      return db.updateTable("alerts").set({ acknowledged_at: dialect.time(at), acknowledged_by: by }).where("alert_id", "=", alertId).where("acknowledged_at", "is", null).returningAll().executeTakeFirst();
    },
    /** Records who ended what the alert was about (an unlock): `by` replaces an earlier acknowledger, the first time stays. */
    async acknowledgeAs(alertId, at, by) {
      await db.updateTable("alerts").set((eb) => ({
        acknowledged_at: eb.fn.coalesce("acknowledged_at", eb.val(dialect.time(at))),
        ...by === null ? {} : { acknowledged_by: by }
      })).where("alert_id", "=", alertId).execute();
    },
    /**
     * Inside a transaction: the sensor's evaluated level, its row locked so evaluations of one
     * sensor take turns. With `skipLocked`, undefined when another transaction holds it.
     */
    async lockLevel(sensorId, skipLocked = false) {
      await db.insertInto("alert_levels").values({ sensor_id: sensorId, level: null, ok_since: null, calm_since: null }).onConflict((oc) => oc.column("sensor_id").doNothing()).execute();
      const query = db.selectFrom("alert_levels").select(["level", "ok_since", "calm_since"]).where("sensor_id", "=", sensorId);
      return (skipLocked ? dialect.forUpdateSkipLocked(query) : dialect.forUpdate(query)).executeTakeFirst();
    },
    async saveLevel(sensorId, { level, okSince, calmSince }) {
      const time = (ms) => ms === null ? null : dialect.time(ms);
      await db.updateTable("alert_levels").set({ level, ok_since: time(okSince), calm_since: time(calmSince) }).where("sensor_id", "=", sensorId).execute();
    },
    levels() {
      return db.selectFrom("alert_levels").select(["sensor_id", "level", "ok_since", "calm_since"]).execute();
    },
    /** With the sensors being deleted (same transaction): what the store derived from them goes too. */
    async sensorsRemoved(sensorIds) {
      if (sensorIds.length === 0)
        return;
      await db.deleteFrom("alerts").where("sensor_id", "in", [...sensorIds]).execute();
      await db.deleteFrom("alert_levels").where("sensor_id", "in", [...sensorIds]).execute();
    },
    async enqueue(notifications) {
      if (notifications.length === 0)
        return;
      await db.insertInto("alert_notifications").values(notifications.map((n) => ({ ...n, created_at: dialect.time(n.created_at), next_attempt_at: dialect.time(n.created_at) }))).execute();
    },
    /** Notifications for `url` due by `now`, each the first still undelivered of its alert, oldest first. */
    due(url, now, limit) {
      return headsOf(url).selectAll("n").where("n.next_attempt_at", "<=", dialect.at(now)).orderBy("n.notification_id").limit(limit).execute();
    },
    /** When the next notification for `url` falls due (undefined: none waiting). */
    async nextDue(url) {
      const row = await headsOf(url).select((eb) => eb.fn.min("n.next_attempt_at").as("at")).executeTakeFirst();
      return row?.at === null || row?.at === void 0 ? void 0 : Number(row.at);
    },
    /** Delivered, or given up on: gone from the outbox. */
    async done(notificationId) {
      await db.deleteFrom("alert_notifications").where("notification_id", "=", notificationId).execute();
    },
    async retryAt(notificationId, at, error) {
      await db.updateTable("alert_notifications").set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: dialect.time(at), last_error: error.slice(0, 500) })).where("notification_id", "=", notificationId).execute();
    },
    /** How many notifications wait, per URL (tests, and the log at start). */
    async waiting() {
      const row = await db.selectFrom("alert_notifications").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    }
  };
}
var ALERT_COLUMNS;
var init_alerts2 = __esm({
  "dist/store/repositories/alerts.js"() {
    "use strict";
    ALERT_COLUMNS = [
      "alerts.alert_id",
      "alerts.sensor_id",
      "alerts.actuator_id",
      "sensors.prototype_id",
      "alerts.kind",
      "alerts.severity",
      "alerts.state",
      "alerts.raised_at",
      "alerts.cleared_at",
      "alerts.acknowledged_at",
      "alerts.acknowledged_by",
      "alerts.value",
      "alerts.peak",
      "alerts.last_value"
    ];
  }
});

// dist/store/repositories/interlocks.js
function interlockRepository(db) {
  return {
    /** The actuator's interlocks, in its order ([] when it has none). */
    of(actuatorId) {
      return db.selectFrom("actuator_interlocks").select(COLUMNS2).where("actuator_id", "=", actuatorId).orderBy("position").execute();
    },
    /** The interlocks of each of these actuators (an actuator without any is left out of the map). */
    async ofActuators(actuatorIds) {
      const out = /* @__PURE__ */ new Map();
      if (actuatorIds.length === 0)
        return out;
      const rows = await db.selectFrom("actuator_interlocks").select(["actuator_id", ...COLUMNS2]).where("actuator_id", "in", [...new Set(actuatorIds)]).orderBy("actuator_id").orderBy("position").execute();
      for (const { actuator_id, ...interlock } of rows) {
        const list = out.get(actuator_id) ?? [];
        list.push(interlock);
        out.set(actuator_id, list);
      }
      return out;
    },
    /** Replaces all of the actuator's interlocks with these, in this order. */
    async replace(actuatorId, interlocks) {
      await db.deleteFrom("actuator_interlocks").where("actuator_id", "=", actuatorId).execute();
      if (interlocks.length === 0)
        return;
      await db.insertInto("actuator_interlocks").values(interlocks.map((interlock, position) => ({
        actuator_id: actuatorId,
        position,
        sensor_id: interlock.sensor_id,
        block_below: interlock.block_below,
        block_above: interlock.block_above
      }))).execute();
    },
    /** The actuators that use any of these sensors as an interlock, by id. */
    async actuatorsUsing(sensorIds) {
      if (sensorIds.length === 0)
        return [];
      const rows = await db.selectFrom("actuator_interlocks").select("actuator_id").distinct().where("sensor_id", "in", [...sensorIds]).orderBy("actuator_id").execute();
      return rows.map((r) => r.actuator_id);
    },
    /** Deletes every interlock entry that names one of these sensors. */
    async removeSensors(sensorIds) {
      if (sensorIds.length === 0)
        return;
      await db.deleteFrom("actuator_interlocks").where("sensor_id", "in", [...sensorIds]).execute();
    }
  };
}
var COLUMNS2;
var init_interlocks = __esm({
  "dist/store/repositories/interlocks.js"() {
    "use strict";
    COLUMNS2 = ["sensor_id", "block_below", "block_above"];
  }
});

// dist/store/repositories/removals.js
import { sql as sql20 } from "kysely";
function removals(db, dialect) {
  const history = historyRepository(db, dialect);
  const alerts = alertRepository(db, dialect);
  const interlocks = interlockRepository(db);
  const actuators = actuatorRepository(db, dialect);
  const count = async (query) => Number((await query).n);
  const countAll = sql20`count(*)`.as("n");
  async function sensorIdsOf(prototypeId) {
    const query = db.selectFrom("sensors").select("sensor_id").where("prototype_id", "=", prototypeId).orderBy("sensor_id");
    return (await dialect.forUpdate(query).execute()).map((r) => r.sensor_id);
  }
  async function actuatorsOf(sensorIds) {
    const driven = await db.selectFrom("actuators").select("actuator_id").where("sensor_id", "in", sensorIds).execute();
    const ids = /* @__PURE__ */ new Set([...driven.map((a) => a.actuator_id), ...await interlocks.actuatorsUsing(sensorIds)]);
    return [...ids].sort((a, b) => a - b);
  }
  async function dependentsOfSensors(sensorIds) {
    if (sensorIds.length === 0)
      return { actuators: 0, measurements: 0 };
    const [actuators2, measurements] = [
      (await actuatorsOf(sensorIds)).length,
      await count(db.selectFrom("measurements").select(countAll).where("sensor_id", "in", sensorIds).executeTakeFirstOrThrow())
    ];
    return { actuators: actuators2, measurements };
  }
  async function removeBelow(sensorIds) {
    if (sensorIds.length === 0)
      return { actuatorIds: [], disabled: [] };
    const interlocked = await interlocks.actuatorsUsing(sensorIds);
    await interlocks.removeSensors(sensorIds);
    await history.sensorsRemoved(sensorIds);
    await alerts.sensorsRemoved(sensorIds);
    await db.deleteFrom("measurements").where("sensor_id", "in", sensorIds).execute();
    const removed = await db.deleteFrom("actuators").where("sensor_id", "in", sensorIds).returning("actuator_id").execute();
    const actuatorIds = removed.map((a) => a.actuator_id).sort((a, b) => a - b);
    const kept = interlocked.filter((id) => !actuatorIds.includes(id));
    const disabled = await actuators.disable(kept);
    const left = await interlocks.ofActuators(kept);
    return { actuatorIds, disabled: disabled.map((a) => ({ ...a, interlocks: left.get(a.actuator_id) ?? [] })) };
  }
  return {
    /** A measurement, and its share of the history buckets (recomputed in the same transaction); answers the row removed. */
    async measurement(measurementId) {
      const removed = await db.deleteFrom("measurements").where("measurement_id", "=", measurementId).returning(["measurement_id", "sensor_id", "value", dialect.timestampMs().as("timestamp")]).execute();
      await history.measurementsRemoved(removed);
      return removed[0];
    },
    /** An actuator; its interlocks and doses go with it (the schema cascades). */
    async actuator(actuatorId) {
      const result = await db.deleteFrom("actuators").where("actuator_id", "=", actuatorId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /**
     * A sensor, refused while it has measurements or actuators unless `cascade`, which deletes them
     * with it. Its calibrations go with it (the schema cascades).
     */
    async sensor(sensorId, cascade) {
      const query = db.selectFrom("sensors").select("sensor_id").where("sensor_id", "=", sensorId);
      if (!await dialect.forUpdate(query).executeTakeFirst())
        return { status: "missing" };
      if (!cascade) {
        const dependents = await dependentsOfSensors([sensorId]);
        if (hasAny(dependents))
          return { status: "has-dependents", dependents };
      }
      const below = await removeBelow([sensorId]);
      await db.deleteFrom("sensors").where("sensor_id", "=", sensorId).execute();
      return { status: "removed", sensorIds: [sensorId], ...below };
    },
    /**
     * A prototype, refused while it has sensors (and so their actuators and measurements) or notes
     * unless `cascade`. Its notes, pauses and resumes go with it (the schema cascades).
     */
    async prototype(prototypeId, cascade) {
      const query = db.selectFrom("prototypes").select("prototype_id").where("prototype_id", "=", prototypeId);
      if (!await dialect.forUpdate(query).executeTakeFirst())
        return { status: "missing" };
      const sensorIds = await sensorIdsOf(prototypeId);
      if (!cascade) {
        const notes2 = await count(db.selectFrom("notes").select(countAll).where("prototype_id", "=", prototypeId).executeTakeFirstOrThrow());
        const dependents = { sensors: sensorIds.length, ...await dependentsOfSensors(sensorIds), notes: notes2 };
        if (hasAny(dependents))
          return { status: "has-dependents", dependents };
      }
      const below = await removeBelow(sensorIds);
      if (sensorIds.length > 0)
        await db.deleteFrom("sensors").where("sensor_id", "in", sensorIds).execute();
      await db.deleteFrom("prototypes").where("prototype_id", "=", prototypeId).execute();
      return { status: "removed", sensorIds, ...below };
    }
  };
}
var hasAny;
var init_removals = __esm({
  "dist/store/repositories/removals.js"() {
    "use strict";
    init_actuators();
    init_alerts2();
    init_history();
    init_interlocks();
    hasAny = (d) => (d.sensors ?? 0) + d.actuators + d.measurements + (d.notes ?? 0) > 0;
  }
});

// dist/store/repositories/settings.js
function settingRepository(db) {
  return {
    async get(key) {
      const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
      return row?.value;
    },
    /** Stores `value` under `key`, replacing what was there. */
    async set(key, value) {
      await db.insertInto("settings").values({ key, value }).onConflict((oc) => oc.column("key").doUpdateSet({ value })).execute();
    },
    /** Stores `value` unless `key` is already set; true when this call set it. Safe under concurrent callers. */
    async setIfAbsent(key, value) {
      const result = await db.insertInto("settings").values({ key, value }).onConflict((oc) => oc.column("key").doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    }
  };
}
var init_settings = __esm({
  "dist/store/repositories/settings.js"() {
    "use strict";
  }
});

// dist/store/seed-defaults.js
async function seedDefaults(db, dialect, now = Date.now()) {
  return db.transaction().execute(async (trx) => {
    const first = await settingRepository(trx).setIfAbsent(MARKER, new Date(now).toISOString());
    if (!first)
      return false;
    const anyPrototype = await trx.selectFrom("prototypes").select("prototype_id").limit(1).executeTakeFirst();
    if (anyPrototype)
      return false;
    await trx.insertInto("prototypes").values({ prototype_id: 0, prototype_name: "default_prototype" }).execute();
    const sensor = (sensor_type, sensor_unit, t) => ({
      sensor_type,
      prototype_id: 0,
      sensor_unit,
      threshold_critically_low: t[0],
      threshold_low: t[1],
      threshold_high: t[2],
      threshold_critically_high: t[3]
    });
    await trx.insertInto("sensors").values(sensor("ec", "mS/cm", [0, 1, 2, 3])).execute();
    const ph = await trx.insertInto("sensors").values(sensor("ph", "pH", [0, 4, 7, 10])).returning("sensor_id").executeTakeFirstOrThrow();
    await trx.insertInto("sensors").values(sensor("temperature", "Celsius", [0, 10, 30, 40])).execute();
    await trx.insertInto("actuators").values({
      actuator_type: "acid_pump",
      sensor_id: ph.sensor_id,
      condition_value: 6.5,
      activation_condition: "high",
      activation_period: 300,
      activation_duration: 2,
      actuator_name: null,
      enabled: dialect.bool(false),
      last_activated: dialect.time(now)
    }).execute();
    return true;
  });
}
var MARKER;
var init_seed_defaults = __esm({
  "dist/store/seed-defaults.js"() {
    "use strict";
    init_settings();
    MARKER = "defaults_seeded";
  }
});

// dist/store/common.js
import { Migrator, sql as sql21 } from "kysely";
async function prepare(db, dialect, seed, log = () => {
}, migrationsUnder = (migrate) => migrate()) {
  await migrationsUnder(async () => {
    const { error } = await new Migrator({ db, provider: migrationProvider(dialect, log) }).migrateToLatest();
    if (error)
      throw error;
  });
  if (seed)
    await seedDefaults(db, dialect);
}
async function ping(db, timeoutMs = PING_TIMEOUT_MS) {
  let timer;
  const late = new Promise((resolve4) => {
    timer = setTimeout(() => resolve4(false), timeoutMs);
  });
  const answered = sql21`select 1`.execute(db).then(() => true, () => false);
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
function knownSensors(lookUp) {
  const known = /* @__PURE__ */ new Set();
  return {
    /** The store's `sensors.existing`. */
    async existing(ids) {
      let unknown;
      for (const id of ids)
        if (!known.has(id))
          (unknown ??= /* @__PURE__ */ new Set()).add(id);
      if (unknown) {
        for (const id of await lookUp([...unknown]))
          known.add(id);
      }
      const found = /* @__PURE__ */ new Set();
      for (const id of ids)
        if (known.has(id))
          found.add(id);
      return found;
    },
    forget(ids) {
      for (const id of ids)
        known.delete(id);
    },
    forgetAll() {
      known.clear();
    }
  };
}
function storeRepositories(repos, fast) {
  return {
    prototypes: repos.prototypes,
    settings: repos.settings,
    users: repos.users,
    deviceTokens: repos.deviceTokens,
    pictures: repos.pictures,
    alerts: repos.alerts,
    interlocks: repos.interlocks,
    activations: repos.activations,
    refills: repos.refills,
    calibrations: repos.calibrations,
    notes: repos.notes,
    safetyEvents: repos.safetyEvents,
    sensors: { ...repos.sensors, existing: fast.existingSensors },
    measurements: { ...repos.measurements, last: fast.lastMeasurement, walkWindow: fast.walkWindow },
    actuators: { ...repos.actuators, get: fast.actuator },
    history: { ...repos.history, bucketRows: fast.bucketRows, dayStamps: fast.dayStamps }
  };
}
function ingestion(insert, instruments, known) {
  return (rows) => insert(rows).then((stored) => {
    instruments.ingested?.(stored.length);
    return stored;
  }, (error) => {
    if (isMissingReference(error))
      known.forgetAll();
    throw error;
  });
}
function removalsOf(db, dialect, inTransaction, known) {
  const removeAndForget = async (remove) => {
    const result = await inTransaction((trx) => remove(removals(trx, dialect)));
    if (result.status === "removed")
      known.forget(result.sensorIds);
    return result;
  };
  return {
    measurement: (measurementId) => inTransaction((trx) => removals(trx, dialect).measurement(measurementId)),
    actuator: (actuatorId) => removals(db, dialect).actuator(actuatorId),
    sensor: (sensorId, cascade) => removeAndForget((r) => r.sensor(sensorId, cascade)),
    prototype: (prototypeId, cascade) => removeAndForget((r) => r.prototype(prototypeId, cascade))
  };
}
var PING_TIMEOUT_MS;
var init_common = __esm({
  "dist/store/common.js"() {
    "use strict";
    init_errors3();
    init_migrations();
    init_removals();
    init_seed_defaults();
    PING_TIMEOUT_MS = 1e3;
  }
});

// dist/store/repositories/record-page.js
function paged(query, columns3, page, dialect) {
  const at = columns3.at;
  const id = columns3.id;
  const { window, before } = page;
  let q = query;
  if (window.start !== void 0)
    q = q.where(at, ">=", dialect.at(window.start));
  if (window.end !== void 0)
    q = q.where(at, window.endInclusive ? "<=" : "<", dialect.at(window.end));
  if (before !== void 0) {
    const edge = dialect.at(before.at);
    q = q.where((eb) => eb.or([eb(at, "<", edge), eb.and([eb(at, "=", edge), eb(id, "<", before.id)])]));
  }
  return q.orderBy(at, "desc").orderBy(id, "desc").limit(page.limit);
}
var init_record_page = __esm({
  "dist/store/repositories/record-page.js"() {
    "use strict";
  }
});

// dist/store/repositories/activations.js
function activationRepository(db, dialect) {
  return {
    async record(dose) {
      const row = await db.insertInto("activations").values({
        actuator_id: dose.actuator_id,
        activated_at: dialect.time(dose.activated_at),
        duration: dose.duration,
        value_before: dose.value_before,
        answered: null,
        volume_ml: dose.volume_ml
      }).returningAll().executeTakeFirstOrThrow();
      return toActivation(row);
    },
    /**
     * The actuator's doses in `window` ([start, end)), newest first (ties: the later recorded),
     * at most `limit`, only those recorded before `before` (an activation_id) when given.
     */
    async list(actuatorId, window, limit, before) {
      let query = db.selectFrom("activations").selectAll().where("actuator_id", "=", actuatorId);
      if (window.start !== void 0)
        query = query.where("activated_at", ">=", dialect.at(window.start));
      if (window.end !== void 0)
        query = query.where("activated_at", window.endInclusive ? "<=" : "<", dialect.at(window.end));
      if (before !== void 0)
        query = query.where("activation_id", "<", before);
      const rows = await query.orderBy("activation_id", "desc").limit(limit).execute();
      return rows.map(toActivation);
    },
    /**
     * One page of the actuator's doses in `window`, oldest first (by time, then id), after the
     * dose `after` when given: what the dose totals fold, a page at a time.
     */
    async amounts(actuatorId, window, limit, after) {
      let query = db.selectFrom("activations").select(["activation_id", "activated_at", "duration", "volume_ml"]).where("actuator_id", "=", actuatorId);
      if (window.start !== void 0)
        query = query.where("activated_at", ">=", dialect.at(window.start));
      if (window.end !== void 0)
        query = query.where("activated_at", window.endInclusive ? "<=" : "<", dialect.at(window.end));
      if (after !== void 0) {
        const at = dialect.at(after.activated_at);
        query = query.where((eb) => eb.or([eb("activated_at", ">", at), eb.and([eb("activated_at", "=", at), eb("activation_id", ">", after.activation_id)])]));
      }
      return query.orderBy("activated_at").orderBy("activation_id").limit(limit).execute();
    },
    /** A page of the doses of the actuators on the prototype's sensors (the journal), each with its actuator's sensor. */
    async ofPrototype(prototypeId, page) {
      const query = db.selectFrom("activations").innerJoin("actuators", "actuators.actuator_id", "activations.actuator_id").innerJoin("sensors", "sensors.sensor_id", "actuators.sensor_id").selectAll("activations").select("actuators.sensor_id").where("sensors.prototype_id", "=", prototypeId);
      const rows = await paged(query, { at: "activations.activated_at", id: "activations.activation_id" }, page, dialect).execute();
      return rows.map((row) => ({ ...toActivation(row), sensor_id: row.sensor_id }));
    },
    /** The actuator's doses recorded at or after `from`, oldest first: what the rolling limits and the judging read. */
    async since(actuatorId, from) {
      const rows = await db.selectFrom("activations").selectAll().where("actuator_id", "=", actuatorId).where("activated_at", ">=", dialect.at(from)).orderBy("activation_id").execute();
      return rows.map(toActivation);
    },
    /** The actuator's doses not judged yet, oldest first. */
    async unjudged(actuatorId) {
      const rows = await db.selectFrom("activations").selectAll().where("actuator_id", "=", actuatorId).where("answered", "is", null).orderBy("activation_id").execute();
      return rows.map(toActivation);
    },
    /**
     * The actuators that have doses not judged yet, each with its sensor, by actuator_id; `always`
     * actuators left out (their doses are never judged).
     */
    async pendingActuators() {
      return db.selectFrom("actuators").select(["actuators.actuator_id", "actuators.sensor_id"]).where("actuators.activation_condition", "<>", "always").where(({ exists, selectFrom }) => exists(selectFrom("activations").select("activations.activation_id").whereRef("activations.actuator_id", "=", "actuators.actuator_id").where("activations.answered", "is", null))).orderBy("actuators.actuator_id").execute();
    },
    /** Records the judgement of a dose: answered (true) or not (false). */
    async judge(activationId, answered) {
      await db.updateTable("activations").set({ answered: dialect.bool(answered) }).where("activation_id", "=", activationId).execute();
    }
  };
}
var toActivation;
var init_activations = __esm({
  "dist/store/repositories/activations.js"() {
    "use strict";
    init_record_page();
    toActivation = (row) => ({
      ...row,
      answered: row.answered === null ? null : Boolean(row.answered)
    });
  }
});

// dist/store/repositories/calibrations.js
function calibrationRepository(db, dialect) {
  return {
    async record(calibration) {
      const row = await db.insertInto("calibrations").values({
        sensor_id: calibration.sensor_id,
        calibrated_at: dialect.time(calibration.calibrated_at),
        points: JSON.stringify(calibration.points.map(({ reference, reading }) => ({ reference, reading }))),
        slope: calibration.slope,
        offset: calibration.offset,
        accepted: dialect.bool(calibration.accepted),
        note: calibration.note,
        author: calibration.author
      }).returningAll().executeTakeFirstOrThrow();
      return toCalibration(row);
    },
    /** The sensor's calibrations, newest first (ties: the later recorded), at most `limit`. */
    async list(sensorId, limit) {
      const rows = await db.selectFrom("calibrations").selectAll().where("sensor_id", "=", sensorId).orderBy("calibrated_at", "desc").orderBy("calibration_id", "desc").limit(limit).execute();
      return rows.map(toCalibration);
    },
    /** A page of the calibrations of the prototype's sensors (the journal). */
    async ofPrototype(prototypeId, page) {
      const query = db.selectFrom("calibrations").innerJoin("sensors", "sensors.sensor_id", "calibrations.sensor_id").selectAll("calibrations").where("sensors.prototype_id", "=", prototypeId);
      const rows = await paged(query, { at: "calibrations.calibrated_at", id: "calibrations.calibration_id" }, page, dialect).execute();
      return rows.map(toCalibration);
    }
  };
}
var toCalibration;
var init_calibrations = __esm({
  "dist/store/repositories/calibrations.js"() {
    "use strict";
    init_record_page();
    toCalibration = (row) => ({
      ...row,
      points: JSON.parse(row.points),
      accepted: Boolean(row.accepted)
    });
  }
});

// dist/store/repositories/device-tokens.js
function deviceTokenRepository(db, dialect) {
  return {
    async create(token) {
      const row = await db.insertInto("device_tokens").values({
        user_id: token.user_id,
        name: token.name,
        created_at: dialect.time(token.created_at),
        expires_at: dialect.time(token.expires_at),
        last_used_at: null
      }).returningAll().executeTakeFirstOrThrow();
      return toToken(row);
    },
    async get(tokenId) {
      const row = await db.selectFrom("device_tokens").selectAll().where("token_id", "=", tokenId).executeTakeFirst();
      return row && toToken(row);
    },
    /** The user's device tokens, oldest first. */
    async listByUser(userId) {
      const rows = await db.selectFrom("device_tokens").selectAll().where("user_id", "=", userId).orderBy("token_id").execute();
      return rows.map(toToken);
    },
    /** The ids among `tokenIds` that still exist (not revoked, their user not removed). */
    async existing(tokenIds) {
      if (tokenIds.length === 0)
        return /* @__PURE__ */ new Set();
      const rows = await db.selectFrom("device_tokens").select("token_id").where("token_id", "in", [...new Set(tokenIds)]).execute();
      return new Set(rows.map((r) => Number(r.token_id)));
    },
    /** Revokes the token: false when there is no such token. */
    async remove(tokenId) {
      const result = await db.deleteFrom("device_tokens").where("token_id", "=", tokenId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** Writes the last uses noted since the previous batch; never moves a time back. */
    async noteUses(uses) {
      if (uses.size === 0)
        return;
      await db.transaction().execute(async (trx) => {
        for (const [tokenId, at] of uses) {
          await trx.updateTable("device_tokens").set({ last_used_at: dialect.time(at) }).where("token_id", "=", tokenId).where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", dialect.at(at))])).execute();
        }
      });
    }
  };
}
var toToken;
var init_device_tokens2 = __esm({
  "dist/store/repositories/device-tokens.js"() {
    "use strict";
    toToken = (row) => ({
      ...row,
      token_id: Number(row.token_id),
      user_id: Number(row.user_id)
    });
  }
});

// dist/store/repositories/notes.js
function noteRepository(db, dialect) {
  async function tagsOf(noteIds) {
    const tags = new Map(noteIds.map((id) => [id, []]));
    if (noteIds.length === 0)
      return tags;
    const rows = await db.selectFrom("note_tags").select(["note_id", "tag"]).where("note_id", "in", [...noteIds]).orderBy("note_id").orderBy("position").execute();
    for (const row of rows)
      tags.get(row.note_id)?.push(row.tag);
    return tags;
  }
  async function withTags(rows) {
    const tags = await tagsOf(rows.map((r) => r.note_id));
    return rows.map((row) => ({ ...row, tags: tags.get(row.note_id) ?? [] }));
  }
  async function writeTags(noteId, tags) {
    await db.deleteFrom("note_tags").where("note_id", "=", noteId).execute();
    if (tags.length > 0) {
      await db.insertInto("note_tags").values(tags.map((tag, position) => ({ note_id: noteId, position, tag }))).execute();
    }
  }
  return {
    /** Inside a transaction, writes the note and its tags. */
    async create(note) {
      const row = await db.insertInto("notes").values({ prototype_id: note.prototype_id, at: dialect.time(note.at), text: note.text, author: note.author }).returningAll().executeTakeFirstOrThrow();
      await writeTags(row.note_id, note.tags);
      return { ...row, tags: [...note.tags] };
    },
    async get(noteId) {
      const row = await db.selectFrom("notes").selectAll().where("note_id", "=", noteId).executeTakeFirst();
      return row && (await withTags([row]))[0];
    },
    /** Inside a transaction, the note with its row locked until the end (a concurrent edit waits); undefined when there is none. */
    async getLocked(noteId) {
      const row = await dialect.forUpdate(db.selectFrom("notes").selectAll().where("note_id", "=", noteId)).executeTakeFirst();
      return row && (await withTags([row]))[0];
    },
    /** Inside a transaction, writes the note's text, time and tags. */
    async update(note) {
      const row = await db.updateTable("notes").set({ at: dialect.time(note.at), text: note.text }).where("note_id", "=", note.note_id).returningAll().executeTakeFirstOrThrow();
      await writeTags(note.note_id, note.tags);
      return { ...row, tags: [...note.tags] };
    },
    /** Deletes the note (its tags go with it); answers it, or undefined when there was none. */
    async remove(noteId) {
      return db.deleteFrom("notes").where("note_id", "=", noteId).returning(["note_id", "prototype_id"]).executeTakeFirst();
    },
    /** A page of the notes the filter names, newest first. */
    async list(filter, page) {
      let query = db.selectFrom("notes").selectAll("notes");
      if (filter.prototypeId !== void 0)
        query = query.where("notes.prototype_id", "=", filter.prototypeId);
      const { tag } = filter;
      if (tag !== void 0) {
        query = query.where(({ exists, selectFrom }) => exists(selectFrom("note_tags").select("note_tags.note_id").whereRef("note_tags.note_id", "=", "notes.note_id").where("note_tags.tag", "=", tag)));
      }
      return withTags(await paged(query, { at: "notes.at", id: "notes.note_id" }, page, dialect).execute());
    }
  };
}
var init_notes = __esm({
  "dist/store/repositories/notes.js"() {
    "use strict";
    init_record_page();
  }
});

// dist/store/repositories/pictures.js
function pictureRepository(db, dialect) {
  return {
    async get() {
      const row = await db.selectFrom("pictures").select(["bytes", "content_type", "updated_at"]).where("picture_id", "=", 1).executeTakeFirst();
      return row && { bytes: Buffer.from(row.bytes), content_type: row.content_type, updated_at: row.updated_at };
    },
    async put(bytes, contentType, at) {
      const values = { bytes, content_type: contentType, updated_at: dialect.time(at) };
      await db.insertInto("pictures").values({ picture_id: 1, ...values }).onConflict((oc) => oc.column("picture_id").doUpdateSet(values)).execute();
    }
  };
}
var init_pictures = __esm({
  "dist/store/repositories/pictures.js"() {
    "use strict";
  }
});

// dist/store/repositories/prototypes.js
function prototypeRepository(db, dialect) {
  return {
    list() {
      return db.selectFrom("prototypes").selectAll().orderBy("prototype_id").execute();
    },
    get(prototypeId) {
      return db.selectFrom("prototypes").selectAll().where("prototype_id", "=", prototypeId).executeTakeFirst();
    },
    async exists(prototypeId) {
      const row = await db.selectFrom("prototypes").select("prototype_id").where("prototype_id", "=", prototypeId).executeTakeFirst();
      return row !== void 0;
    },
    /** Creates the prototype; undefined when its id is taken. */
    async create(prototype) {
      return db.insertInto("prototypes").values({ prototype_id: prototype.prototype_id, prototype_name: prototype.prototype_name }).onConflict((oc) => oc.column("prototype_id").doNothing()).returningAll().executeTakeFirst();
    },
    /** Renames the prototype; undefined when it does not exist. */
    rename(prototypeId, name) {
      return db.updateTable("prototypes").set({ prototype_name: name }).where("prototype_id", "=", prototypeId).returningAll().executeTakeFirst();
    },
    /** Sets (or with null, ends) the prototype's pause; undefined when it does not exist. */
    setPause(prototypeId, until) {
      return db.updateTable("prototypes").set({ paused_until: until === null ? null : dialect.time(until) }).where("prototype_id", "=", prototypeId).returningAll().executeTakeFirst();
    }
  };
}
var init_prototypes = __esm({
  "dist/store/repositories/prototypes.js"() {
    "use strict";
  }
});

// dist/store/repositories/refills.js
function refillRepository(db, dialect) {
  const selectRefills = () => db.selectFrom("refills").selectAll("refills");
  function within2(query, window, limit) {
    let q = query;
    if (window.start !== void 0)
      q = q.where("refills.refilled_at", ">=", dialect.at(window.start));
    if (window.end !== void 0)
      q = q.where("refills.refilled_at", window.endInclusive ? "<=" : "<", dialect.at(window.end));
    q = q.orderBy("refills.refilled_at", "desc").orderBy("refills.refill_id", "desc");
    return limit === void 0 ? q : q.limit(limit);
  }
  return {
    async record(refill) {
      return db.insertInto("refills").values({ ...refill, refilled_at: dialect.time(refill.refilled_at) }).returningAll().executeTakeFirstOrThrow();
    },
    /** The refills of these actuators in `window`, newest first. */
    async between(actuatorIds, window, limit) {
      if (actuatorIds.length === 0)
        return [];
      return within2(selectRefills().where("refills.actuator_id", "in", [...actuatorIds]), window, limit).execute();
    },
    /** A page of the refills of the prototype's actuators (those whose sensor belongs to it), for the journal. */
    async ofPrototype(prototypeId, page) {
      const query = selectRefills().innerJoin("actuators", "actuators.actuator_id", "refills.actuator_id").innerJoin("sensors", "sensors.sensor_id", "actuators.sensor_id").select("actuators.sensor_id").where("sensors.prototype_id", "=", prototypeId);
      return paged(query, { at: "refills.refilled_at", id: "refills.refill_id" }, page, dialect).execute();
    }
  };
}
var init_refills = __esm({
  "dist/store/repositories/refills.js"() {
    "use strict";
    init_record_page();
  }
});

// dist/store/repositories/safety-events.js
function safetyEventRepository(db, dialect) {
  const time = (ms) => ms === null || ms === void 0 ? null : dialect.time(ms);
  return {
    /** Inside the transaction of the lockout, unlock, pause or resume it records. */
    async record(event) {
      await db.insertInto("safety_events").values({
        kind: event.kind,
        at: dialect.time(event.at),
        actuator_id: event.actuator_id,
        prototype_id: event.prototype_id,
        until: time(event.until),
        reason: event.reason ?? null,
        author: event.author ?? null
      }).execute();
    },
    /**
     * A page of the prototype's events of these kinds: its pauses and resumes, and the lockouts
     * and unlocks of the actuators on its sensors.
     */
    async ofPrototype(prototypeId, kinds, page) {
      if (kinds.length === 0)
        return [];
      const query = db.selectFrom("safety_events").leftJoin("actuators", "actuators.actuator_id", "safety_events.actuator_id").leftJoin("sensors", "sensors.sensor_id", "actuators.sensor_id").selectAll("safety_events").where("safety_events.kind", "in", [...kinds]).where((eb) => eb.or([eb("safety_events.prototype_id", "=", prototypeId), eb("sensors.prototype_id", "=", prototypeId)]));
      return paged(query, { at: "safety_events.at", id: "safety_events.event_id" }, page, dialect).execute();
    }
  };
}
var init_safety_events = __esm({
  "dist/store/repositories/safety-events.js"() {
    "use strict";
    init_record_page();
  }
});

// dist/store/repositories/sensors.js
function columns2(sensor) {
  return {
    sensor_type: sensor.sensor_type,
    prototype_id: sensor.prototype_id,
    sensor_unit: sensor.sensor_unit,
    threshold_critically_low: sensor.threshold_critically_low,
    threshold_low: sensor.threshold_low,
    threshold_high: sensor.threshold_high,
    threshold_critically_high: sensor.threshold_critically_high,
    sensor_name: sensor.sensor_name ?? null,
    valid_min: sensor.valid_min ?? null,
    valid_max: sensor.valid_max ?? null,
    stale_after: sensor.stale_after ?? null,
    stuck_after: sensor.stuck_after ?? null,
    calibration_interval: sensor.calibration_interval ?? null
  };
}
function sensorRepository(db, dialect) {
  return {
    /** Inside a transaction, locks these sensors' rows in id order (see `Dialect.lockRows`). */
    lock(sensorIds) {
      return dialect.lockRows(db, "sensors", sensorIds);
    },
    async listByPrototype(prototypeId) {
      return (await db.selectFrom("sensors").selectAll().where("prototype_id", "=", prototypeId).orderBy("sensor_id").execute()).map(toSensor);
    },
    /** Sensors by sensor_id, all of them or those matching the filter. */
    async list(filter = {}) {
      let query = db.selectFrom("sensors").selectAll();
      if (filter.sensorIds)
        query = query.where("sensor_id", "in", filter.sensorIds.length ? [...filter.sensorIds] : [-1]);
      if (filter.prototypeId !== void 0)
        query = query.where("prototype_id", "=", filter.prototypeId);
      return (await query.orderBy("sensor_id").execute()).map(toSensor);
    },
    async get(sensorId) {
      const row = await db.selectFrom("sensors").selectAll().where("sensor_id", "=", sensorId).executeTakeFirst();
      return row && toSensor(row);
    },
    /**
     * Inside a transaction, the sensor with its row kept from being deleted until the end
     * (`Dialect.forKeyShare`): for writes of rows that belong to it, which then never meet a
     * delete of the sensor halfway. Undefined when it does not exist (or a delete just took it).
     */
    async getKept(sensorId) {
      const row = await dialect.forKeyShare(db.selectFrom("sensors").selectAll().where("sensor_id", "=", sensorId)).executeTakeFirst();
      return row && toSensor(row);
    },
    /** The ids among `sensorIds` that exist. */
    async existing(sensorIds) {
      if (sensorIds.length === 0)
        return /* @__PURE__ */ new Set();
      const rows = await db.selectFrom("sensors").select("sensor_id").where("sensor_id", "in", [...new Set(sensorIds)]).execute();
      return new Set(rows.map((r) => r.sensor_id));
    },
    /** Creates the sensor, its next calibration due at `calibrationDue` (epoch ms; null: none, as without an interval). */
    async create(sensor, calibrationDue2 = null) {
      const values = { ...columns2(sensor), calibration_due: calibrationDue2 === null ? null : dialect.time(calibrationDue2) };
      return toSensor(await db.insertInto("sensors").values(values).returningAll().executeTakeFirstOrThrow());
    },
    /**
     * Writes every setting of `sensor` (already merged and checked by the caller), and when the
     * next calibration falls due; `calibrated_at` is only ever moved by `calibrated`.
     */
    async update(sensor, calibrationDue2) {
      const row = await db.updateTable("sensors").set({ ...columns2(sensor), calibration_due: calibrationDue2 === null ? null : dialect.time(calibrationDue2) }).where("sensor_id", "=", sensor.sensor_id).returningAll().executeTakeFirstOrThrow();
      return toSensor(row);
    },
    /** Records the sensor's newest accepted calibration and its next due instant (epoch ms, or null). */
    async calibrated(sensorId, at, calibrationDue2) {
      const row = await db.updateTable("sensors").set({ calibrated_at: dialect.time(at), calibration_due: calibrationDue2 === null ? null : dialect.time(calibrationDue2) }).where("sensor_id", "=", sensorId).returningAll().executeTakeFirstOrThrow();
      return toSensor(row);
    }
  };
}
var isoOrNull, toSensor;
var init_sensors = __esm({
  "dist/store/repositories/sensors.js"() {
    "use strict";
    isoOrNull = (ms) => ms === null ? null : new Date(ms).toISOString();
    toSensor = (row) => ({
      ...row,
      calibrated_at: isoOrNull(row.calibrated_at),
      calibration_due: isoOrNull(row.calibration_due)
    });
  }
});

// dist/store/repositories/users.js
import { sql as sql22 } from "kysely";
function userRepository(db, dialect, adminBit = 8) {
  const keepsAnAdmin = (username, staysAdmin) => sql22`(${staysAdmin ? sql22`true` : sql22`false`} or (users.permissions & ${adminBit}) = 0
      or exists (select 1 from users others where others.username <> ${username} and (others.permissions & ${adminBit}) <> 0))`;
  const refusal3 = async (executor, username) => await executor.selectFrom("users").select("user_id").where("username", "=", username).executeTakeFirst() ? "last_admin" : "missing";
  async function insert(executor, user) {
    const anyUser = sql22`exists (select 1 from users)`;
    const { rows } = await sql22`
      insert into users (username, password_hash, permissions, created_at)
      select cast(${user.username} as text), cast(${user.password_hash} as text),
        case when ${anyUser} then cast(${user.permissions} as integer)
             else cast(${user.firstUserPermissions ?? user.permissions} as integer) end,
        cast(${dialect.time(user.created_at)} as ${dialect.timeType})
      where ${user.onlyIfFirst ? sql22`not ${anyUser}` : sql22`true`}
      on conflict (username) do nothing
      returning *`.execute(executor);
    return rows[0] && toUser(rows[0]);
  }
  return {
    async get(username) {
      const row = await db.selectFrom("users").selectAll().where("username", "=", username).executeTakeFirst();
      return row && toUser(row);
    },
    async list() {
      return (await db.selectFrom("users").selectAll().orderBy("username").execute()).map(toUser);
    },
    async any() {
      return await db.selectFrom("users").select("user_id").limit(1).executeTakeFirst() !== void 0;
    },
    /** Creates the user; undefined when the username is taken (or, with `onlyIfFirst`, a user exists). */
    create(user) {
      return dialect.lockingTable(db, "users", (locked) => insert(locked, user));
    },
    /**
     * Revokes every token issued to the user so far: its generation moves on. The new generation
     * (tokens of an older one are revoked), or undefined when there is no such user.
     */
    async revokeTokens(userId, at) {
      const row = await db.updateTable("users").set((eb) => ({ token_generation: eb("token_generation", "+", 1), tokens_valid_after: dialect.time(at) })).where("user_id", "=", userId).returning("token_generation").executeTakeFirst();
      return row && Number(row.token_generation);
    },
    /** The token generation and permissions of each of these users that exists. */
    async tokenStates(userIds) {
      if (userIds.length === 0)
        return /* @__PURE__ */ new Map();
      const rows = await db.selectFrom("users").select(["user_id", "token_generation", "session_generation", "permissions"]).where("user_id", "in", [...userIds]).execute();
      return new Map(rows.map((r) => [
        Number(r.user_id),
        { generation: Number(r.token_generation), sessionGeneration: Number(r.session_generation), permissions: Number(r.permissions) }
      ]));
    },
    /**
     * Changes the user's permissions and/or password, unless that would take the administrator
     * permission from the last user who has it.
     */
    update(username, change) {
      return dialect.lockingTable(db, "users", async (locked) => {
        const staysAdmin = change.permissions === void 0 || (change.permissions & adminBit) !== 0;
        const row = await locked.updateTable("users").set((eb) => ({
          ...change.permissions !== void 0 && { permissions: change.permissions },
          ...change.password_hash !== void 0 && {
            password_hash: change.password_hash,
            session_generation: eb("session_generation", "+", 1)
          },
          username: eb.ref("username")
        })).where("username", "=", username).where(keepsAnAdmin(username, staysAdmin)).returningAll().executeTakeFirst();
        return row ? toUser(row) : refusal3(locked, username);
      });
    },
    /** Removes the user unless it is the last administrator; its device tokens go with it. */
    removeUnlessLastAdmin(username) {
      return dialect.lockingTable(db, "users", async (locked) => {
        const result = await locked.deleteFrom("users").where("username", "=", username).where(keepsAnAdmin(username, false)).executeTakeFirst();
        return Number(result.numDeletedRows) > 0 ? true : refusal3(locked, username);
      });
    },
    /**
     * Ends the tokens the user obtained with a password so far (a logout): the session generation
     * moves on; device tokens stay valid. The new generation, or undefined when there is no such user.
     */
    async revokeSessions(userId) {
      const row = await db.updateTable("users").set((eb) => ({ session_generation: eb("session_generation", "+", 1) })).where("user_id", "=", userId).returning("session_generation").executeTakeFirst();
      return row && Number(row.session_generation);
    },
    async setPermissions(username, permissions) {
      const result = await db.updateTable("users").set({ permissions }).where("username", "=", username).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(username) {
      const result = await db.deleteFrom("users").where("username", "=", username).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    }
  };
}
var toUser;
var init_users = __esm({
  "dist/store/repositories/users.js"() {
    "use strict";
    toUser = (row) => ({
      ...row,
      user_id: Number(row.user_id),
      permissions: Number(row.permissions),
      token_generation: Number(row.token_generation),
      session_generation: Number(row.session_generation)
    });
  }
});

// dist/store/repositories/index.js
function repositories(db, dialect) {
  return {
    prototypes: prototypeRepository(db, dialect),
    sensors: sensorRepository(db, dialect),
    settings: settingRepository(db),
    measurements: measurementRepository(db, dialect),
    history: historyRepository(db, dialect),
    actuators: actuatorRepository(db, dialect),
    interlocks: interlockRepository(db),
    activations: activationRepository(db, dialect),
    refills: refillRepository(db, dialect),
    users: userRepository(db, dialect),
    deviceTokens: deviceTokenRepository(db, dialect),
    pictures: pictureRepository(db, dialect),
    alerts: alertRepository(db, dialect),
    calibrations: calibrationRepository(db, dialect),
    notes: noteRepository(db, dialect),
    safetyEvents: safetyEventRepository(db, dialect)
  };
}
var init_repositories = __esm({
  "dist/store/repositories/index.js"() {
    "use strict";
    init_activations();
    init_actuators();
    init_alerts2();
    init_calibrations();
    init_device_tokens2();
    init_history();
    init_interlocks();
    init_measurements();
    init_notes();
    init_pictures();
    init_prototypes();
    init_refills();
    init_safety_events();
    init_sensors();
    init_settings();
    init_users();
  }
});

// dist/store/sqlite/file-permissions.js
import { closeSync as closeSync3, existsSync as existsSync2, mkdirSync, openSync as openSync3, statSync } from "node:fs";
import { dirname } from "node:path";
function createPrivateStoreFile(file) {
  mkdirSync(dirname(file), { recursive: true, mode: 448 });
  if (!existsSync2(file))
    closeSync3(openSync3(file, "a", 384));
}
function exposedStoreFiles(file) {
  const exposed = [];
  for (const path of [dirname(file), file, `${file}-wal`, `${file}-shm`]) {
    let mode;
    try {
      mode = statSync(path).mode & 511;
    } catch {
      continue;
    }
    if ((mode & 36) !== 0)
      exposed.push({ path, mode: `0${mode.toString(8)}` });
  }
  return exposed;
}
var init_file_permissions = __esm({
  "dist/store/sqlite/file-permissions.js"() {
    "use strict";
  }
});

// dist/store/sqlite/write-watch.js
function rollbackUnlessGone(sqlite, afterWrite) {
  const statement = sqlite.prepare("rollback");
  const run = () => {
    try {
      return sqlite.inTransaction ? statement.run() : { changes: 0, lastInsertRowid: 0 };
    } finally {
      afterWrite();
    }
  };
  return {
    reader: false,
    all: () => (run(), []),
    run,
    iterate: () => {
      run();
      return [][Symbol.iterator]();
    }
  };
}
function watchWrites(sqlite, afterWrite) {
  return {
    close: () => sqlite.close(),
    prepare(text2) {
      if (ROLLBACK.test(text2))
        return rollbackUnlessGone(sqlite, afterWrite);
      const statement = sqlite.prepare(text2);
      if (READ_ONLY.test(text2))
        return statement;
      const watched = (run) => {
        try {
          return run();
        } finally {
          afterWrite();
        }
      };
      return {
        reader: statement.reader,
        all: (parameters) => watched(() => statement.all(parameters)),
        run: (parameters) => watched(() => statement.run(parameters)),
        *iterate(parameters) {
          try {
            yield* statement.iterate(parameters);
          } finally {
            afterWrite();
          }
        }
      };
    }
  };
}
var READ_ONLY, ROLLBACK;
var init_write_watch = __esm({
  "dist/store/sqlite/write-watch.js"() {
    "use strict";
    READ_ONLY = /^\s*select\b/i;
    ROLLBACK = /^\s*rollback\s*;?\s*$/i;
  }
});

// dist/store/sqlite/connection.js
import { resolve as resolve2 } from "node:path";
import SQLite2 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
function sqlitePath(databaseUrl2) {
  return resolve2(databaseUrl2.replace(/^sqlite:(\/\/)?/, ""));
}
function openSqlite(databaseUrl2, synchronous = "normal") {
  const inMemory = databaseUrl2 === "sqlite::memory:";
  const file = inMemory ? ":memory:" : sqlitePath(databaseUrl2);
  if (!inMemory)
    createPrivateStoreFile(file);
  const sqlite = new SQLite2(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`synchronous = ${synchronous === "full" ? "FULL" : "NORMAL"}`);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const listeners = [];
  const database = watchWrites(sqlite, () => {
    for (const listener of listeners)
      listener();
  });
  const db = new Kysely({ dialect: new SqliteDialect({ database }) });
  return { db, sqlite, file: inMemory ? void 0 : file, onQueryBuilderWrite: (listener) => listeners.push(listener) };
}
var init_connection = __esm({
  "dist/store/sqlite/connection.js"() {
    "use strict";
    init_file_permissions();
    init_write_watch();
  }
});

// dist/store/sqlite/dialect.js
import { sql as sql23 } from "kysely";
var ROWS_PER_INSERT2, sqliteDialect;
var init_dialect = __esm({
  "dist/store/sqlite/dialect.js"() {
    "use strict";
    ROWS_PER_INSERT2 = 5e3;
    sqliteDialect = {
      kind: "sqlite",
      schema: {
        time: "integer",
        float: "real",
        bool: "integer",
        bytes: "blob",
        bigId: "integer",
        identity: (column) => column.primaryKey().autoIncrement(),
        // A rowid key keeps inserts cheapest (SQLite integers are 64-bit already).
        rowKey: (column) => column.primaryKey()
      },
      time: (ms) => ms,
      at: (ms) => ms,
      bool: (value) => value ? 1 : 0,
      timeType: sql23.raw("integer"),
      timestampMs: () => sql23`${sql23.ref("timestamp")}`,
      // A write transaction holds the store's only write lock already.
      lockRows: async () => {
      },
      lockingTable: (db, _table, work) => work(db),
      forUpdate: (query) => query,
      forKeyShare: (query) => query,
      forUpdateSkipLocked: (query) => query,
      /**
       * Keeps one of the tied rows on a tie (its bare columns of min()/max(): one pass and no sort,
       * three times faster than ranking the rows), then lets other requests run: the query held the
       * event loop.
       */
      async extremesPerBucket(db, selection, { first, count, span }) {
        const bucket = sql23`cast((timestamp - ${first}) * ${count} / ${span} as integer)`;
        const extreme = (fn) => selection.select(["measurement_id", "sensor_id", sql23`${sql23.raw(fn)}(value)`.as("value"), "timestamp"]).groupBy(bucket);
        const kept = await db.selectFrom(extreme("min").union(extreme("max")).as("e")).selectAll().orderBy("timestamp").orderBy("measurement_id").execute();
        await new Promise((resolve4) => setImmediate(resolve4));
        return kept;
      },
      async insertSeries(db, sensorId, timestamps, values) {
        for (let i = 0; i < timestamps.length; i += ROWS_PER_INSERT2) {
          const end = Math.min(timestamps.length, i + ROWS_PER_INSERT2);
          const rows = [];
          for (let k = i; k < end; k++)
            rows.push({ sensor_id: sensorId, value: values[k], timestamp: timestamps[k] });
          await db.insertInto("measurements").values(rows).execute();
        }
      },
      // SQLite's planner needs no statistics to follow the indexes these queries use.
      analyze: async () => {
      },
      // An explicit id moves SQLite's autoincrement counter on by itself.
      continueIdentity: async () => {
      }
    };
  }
});

// dist/store/ingest-jobs.js
function takeJobs(pending, maxRows) {
  let count = 0;
  let rows = 0;
  while (count < pending.length && (count === 0 || rows + pending[count].rows.length <= maxRows)) {
    rows += pending[count].rows.length;
    count += 1;
  }
  return pending.splice(0, count);
}
var init_ingest_jobs = __esm({
  "dist/store/ingest-jobs.js"() {
    "use strict";
  }
});

// dist/store/sqlite/sensor-order.js
function sensorOrder(rows) {
  const slotOf = /* @__PURE__ */ new Map();
  const places = [];
  const slots = new Int32Array(rows.length);
  let grouped = true;
  let previous = -1;
  for (let i = 0; i < rows.length; i++) {
    const sensorId = rows[i].sensor_id;
    let slot = previous >= 0 && rows[i - 1].sensor_id === sensorId ? previous : slotOf.get(sensorId);
    if (slot === void 0) {
      slot = places.length;
      slotOf.set(sensorId, slot);
      places.push(0);
    } else if (slot !== previous) {
      grouped = false;
    }
    places[slot] += 1;
    slots[i] = slot;
    previous = slot;
  }
  if (grouped)
    return void 0;
  let at = 0;
  for (let slot = 0; slot < places.length; slot++) {
    const count = places[slot];
    places[slot] = at;
    at += count;
  }
  const order = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++)
    order[places[slots[i]]++] = i;
  return order;
}
var init_sensor_order = __esm({
  "dist/store/sqlite/sensor-order.js"() {
    "use strict";
  }
});

// dist/store/sqlite/group-commit.js
function committedRows(results) {
  const rows = [];
  for (const result of results)
    if (Array.isArray(result))
      for (const row of result)
        rows.push(row);
  return rows;
}
function sqliteGroupCommit(sqlite, { maxRowsPerCommit = 5e4, onCommitted, beforeCommit, onGroupCommitted } = {}) {
  const bySize = /* @__PURE__ */ new Map();
  function insertOf(size) {
    let prepared = bySize.get(size);
    if (!prepared) {
      const values = Array(size).fill("(?, ?, ?)").join(", ");
      prepared = {
        statement: sqlite.prepare(`insert into measurements (sensor_id, value, timestamp) values ${values}`),
        params: new Array(size * 3)
      };
      bySize.set(size, prepared);
    }
    return prepared;
  }
  const insertJob = sqlite.transaction((rows) => {
    const out = new Array(rows.length);
    const order = sensorOrder(rows);
    for (let i = 0; i < rows.length; ) {
      const size = Math.min(MAX_ROWS_PER_STATEMENT, rows.length - i);
      const { statement, params } = insertOf(size);
      for (let k = 0; k < size; k++) {
        const row = rows[order ? order[i + k] : i + k];
        params[3 * k] = row.sensor_id;
        params[3 * k + 1] = row.value;
        params[3 * k + 2] = row.timestamp;
      }
      const last = Number(statement.run(params).lastInsertRowid);
      for (let k = 0; k < size; k++) {
        const place = order ? order[i + k] : i + k;
        const row = rows[place];
        out[place] = { measurement_id: last - size + 1 + k, sensor_id: row.sensor_id, value: row.value, timestamp: row.timestamp };
      }
      i += size;
    }
    return out;
  });
  function unlessTransactionLost(error) {
    if (!sqlite.inTransaction)
      throw error;
  }
  function insertEach(jobs) {
    return jobs.map((job) => {
      try {
        return insertJob(job.rows);
      } catch (error) {
        unlessTransactionLost(error);
        return { error };
      }
    });
  }
  function insertTogether(jobs) {
    const rows = [];
    for (const job of jobs)
      for (const row of job.rows)
        rows.push(row);
    let stored;
    try {
      stored = insertJob(rows);
    } catch (error) {
      unlessTransactionLost(error);
      return void 0;
    }
    let at = 0;
    return { perJob: jobs.map((job) => stored.slice(at, at += job.rows.length)), rows: stored };
  }
  const pending = [];
  let scheduled = false;
  function schedule(delayMs) {
    if (scheduled)
      return;
    scheduled = true;
    if (delayMs === 0)
      setImmediate(flush);
    else
      setTimeout(flush, delayMs);
  }
  function flush() {
    scheduled = false;
    if (pending.length === 0)
      return;
    if (sqlite.inTransaction) {
      schedule(1);
      return;
    }
    const jobs = takeJobs(pending, maxRowsPerCommit);
    if (pending.length > 0)
      schedule(0);
    let results = [];
    try {
      sqlite.transaction(() => {
        const together2 = jobs.length > 1 ? insertTogether(jobs) : void 0;
        results = together2 ? together2.perJob : insertEach(jobs);
        if (!beforeCommit)
          return;
        if (together2)
          beforeCommit(together2.rows);
        else
          beforeCommit(results.length === 1 && Array.isArray(results[0]) ? results[0] : committedRows(results));
      })();
    } catch (error) {
      for (const job of jobs)
        job.reject(error);
      return;
    }
    if (onGroupCommitted)
      onGroupCommitted(jobs.length, jobs.reduce((n, job) => n + job.rows.length, 0));
    jobs.forEach((job, i) => {
      const result = results[i];
      if (Array.isArray(result)) {
        onCommitted?.(result);
        job.resolve(result);
      } else {
        job.reject(result.error);
      }
    });
  }
  return {
    /** Inserts the rows (all or none of them), resolving once they are committed. */
    insert(rows) {
      if (rows.length === 0)
        return Promise.resolve([]);
      return new Promise((resolve4, reject) => {
        pending.push({ rows, resolve: resolve4, reject });
        schedule(0);
      });
    }
  };
}
var MAX_ROWS_PER_STATEMENT;
var init_group_commit = __esm({
  "dist/store/sqlite/group-commit.js"() {
    "use strict";
    init_ingest_jobs();
    init_sensor_order();
    MAX_ROWS_PER_STATEMENT = 128;
  }
});

// dist/domain/bucket-commit.js
function commitBuckets(rows, sizes) {
  const finest = sizes[0];
  const sensors = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const point = { id: row.measurement_id, ts: row.timestamp, value: row.value };
    const start = bucketStart(row.timestamp, finest);
    const known = sensors.get(row.sensor_id);
    if (known === void 0) {
      const bucket = { start, ...summaryOfPoint(point) };
      sensors.set(row.sensor_id, { current: bucket, byStart: /* @__PURE__ */ new Map([[start, bucket]]) });
    } else if (known.current.start === start) {
      addPoint(known.current, point);
    } else {
      const other = known.byStart.get(start);
      if (other === void 0)
        known.byStart.set(start, known.current = { start, ...summaryOfPoint(point) });
      else
        addPoint(known.current = other, point);
    }
  }
  const touched = [];
  for (const [sensorId, { byStart }] of sensors) {
    let finer = [...byStart.values()];
    for (const b of finer)
      touched.push({ sensorId, size: finest, bucket: b });
    for (let s = 1; s < sizes.length; s++) {
      const size = sizes[s];
      const coarser = /* @__PURE__ */ new Map();
      for (const b of finer) {
        const start = bucketStart(b.start, size);
        const into = coarser.get(start);
        if (into === void 0)
          coarser.set(start, { ...b, start });
        else
          mergeInto(into, b);
      }
      finer = [...coarser.values()];
      for (const b of finer)
        touched.push({ sensorId, size, bucket: b });
    }
  }
  return touched;
}
var init_bucket_commit = __esm({
  "dist/domain/bucket-commit.js"() {
    "use strict";
    init_bucket_sizes();
    init_bucket_summary();
  }
});

// dist/store/sqlite/history-upsert.js
function sqliteHistoryUpsert(sqlite) {
  const upsert = sqlite.prepare(`insert into history_buckets as b (${STAMPED_BUCKET_COLUMNS.join(", ")}) values (${STAMPED_BUCKET_COLUMNS.map(() => "?").join(", ")}) ${MERGE_ON_CONFLICT}`);
  return function addToHistory(rows) {
    const stamp = newBucketStamp();
    for (const { sensorId, size, bucket: b } of commitBuckets(rows, KEPT_SIZES)) {
      upsert.run(sensorId, size, b.start, b.count, b.sum, b.min.value, b.min.ts, b.min.id, b.max.value, b.max.ts, b.max.id, b.first.value, b.first.ts, b.first.id, b.last.value, b.last.ts, b.last.id, stamp);
    }
  };
}
var init_history_upsert = __esm({
  "dist/store/sqlite/history-upsert.js"() {
    "use strict";
    init_bucket_commit();
    init_bucket_sizes();
    init_history_sql();
  }
});

// dist/store/sqlite/hot-cache.js
function sqliteHotCache(writer, reader, probe) {
  const dataVersion = writer.prepare("pragma data_version").pluck();
  let seenVersion = dataVersion.get();
  const newest = /* @__PURE__ */ new Map();
  const actuators = /* @__PURE__ */ new Map();
  function dropAll() {
    newest.clear();
    actuators.clear();
  }
  let checked = false;
  const uncheck = () => {
    checked = false;
  };
  function usable() {
    if (writer.inTransaction)
      return false;
    if (checked)
      return true;
    checked = true;
    setImmediate(uncheck);
    if (probe?.unchanged())
      return true;
    const version = dataVersion.get();
    if (version !== seenVersion) {
      seenVersion = version;
      dropAll();
    }
    probe?.markSeen();
    return true;
  }
  function remember(map, id, value) {
    if (map.size >= MAX_ENTRIES)
      map.clear();
    map.set(id, value ?? null);
    return value;
  }
  return {
    lastMeasurement(sensorId) {
      if (!usable())
        return reader.lastMeasurement(sensorId);
      const cached = newest.get(sensorId);
      if (cached !== void 0)
        return cached ?? void 0;
      return remember(newest, sensorId, reader.lastMeasurement(sensorId));
    },
    actuator(actuatorId) {
      if (!usable())
        return reader.actuator(actuatorId);
      const cached = actuators.get(actuatorId);
      if (cached !== void 0)
        return cached ?? void 0;
      return remember(actuators, actuatorId, reader.actuator(actuatorId));
    },
    /** Measurements this process has just committed: each sensor's entry keeps the newest (timestamp, then id). */
    committed(rows) {
      for (const row of rows) {
        const cached = newest.get(row.sensor_id);
        if (cached === void 0)
          continue;
        if (cached === null || row.timestamp > cached.timestamp || row.timestamp === cached.timestamp && row.measurement_id > cached.measurement_id) {
          newest.set(row.sensor_id, row);
        }
      }
    },
    dropAll
  };
}
var MAX_ENTRIES;
var init_hot_cache = __esm({
  "dist/store/sqlite/hot-cache.js"() {
    "use strict";
    MAX_ENTRIES = 1e4;
  }
});

// dist/store/sqlite/reader.js
import SQLite3 from "better-sqlite3";
function sqliteReader(file) {
  const db = new SQLite3(file, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  const last = db.prepare("select measurement_id, sensor_id, value, timestamp from measurements where sensor_id = ? order by timestamp desc, measurement_id desc limit 1");
  const actuator = db.prepare("select * from actuators where actuator_id = ?");
  const columns3 = "select measurement_id, sensor_id, value, timestamp from measurements where sensor_id = ? and timestamp >= ?";
  const order = "order by timestamp, measurement_id limit ?";
  const after = "and (timestamp > ? or (timestamp = ? and measurement_id > ?))";
  const page = {
    exclusive: db.prepare(`${columns3} and timestamp < ? ${order}`),
    inclusive: db.prepare(`${columns3} and timestamp <= ? ${order}`),
    exclusiveAfter: db.prepare(`${columns3} and timestamp < ? ${after} ${order}`),
    inclusiveAfter: db.prepare(`${columns3} and timestamp <= ? ${after} ${order}`)
  };
  const sensor = db.prepare("select 1 from sensors where sensor_id = ?").pluck();
  const buckets = {
    whole: db.prepare(bucketReadSql("whole")).raw(),
    values: db.prepare(bucketReadSql("values")).raw(),
    extremes: db.prepare(bucketReadSql("extremes")).raw()
  };
  const dayStamps = db.prepare(dayStampsSql).raw();
  return {
    lastMeasurement(sensorId) {
      return last.get(sensorId);
    },
    actuator(actuatorId) {
      const row = actuator.get(actuatorId);
      return row && { ...row, enabled: Boolean(row.enabled) };
    },
    /** One page of a window in time order, after the given row (keyset pagination). */
    windowPage(sensorId, window, afterRow, limit) {
      const start = window.start ?? Number.MIN_SAFE_INTEGER;
      const end = window.end ?? Number.MAX_SAFE_INTEGER;
      if (!afterRow)
        return (window.endInclusive ? page.inclusive : page.exclusive).all(sensorId, start, end, limit);
      const statement = window.endInclusive ? page.inclusiveAfter : page.exclusiveAfter;
      return statement.all(sensorId, start, end, afterRow.timestamp, afterRow.timestamp, afterRow.measurement_id, limit);
    },
    /** A sensor's kept buckets of `size` starting in [from, to), in time order, as arrays of the columns of `read`. */
    bucketRows(read, sensorId, size, from, to) {
      return buckets[read].all(sensorId, size, from, to);
    },
    /** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
    dayStamps(sensorId, from, to) {
      return dayStamps.all(sensorId, DAY2, from, to);
    },
    sensorExists(sensorId) {
      return sensor.get(sensorId) !== void 0;
    },
    close() {
      db.close();
    }
  };
}
var init_reader = __esm({
  "dist/store/sqlite/reader.js"() {
    "use strict";
    init_bucket_sizes();
    init_history_sql();
  }
});

// dist/store/sqlite/migration-lock.js
async function inOneWriteTransaction(sqlite, migrate, onWait) {
  const busyTimeout = sqlite.pragma("busy_timeout", { simple: true });
  sqlite.pragma("busy_timeout = 0");
  let waited = false;
  try {
    for (; ; ) {
      try {
        sqlite.exec("BEGIN IMMEDIATE");
        break;
      } catch (error) {
        if (error.code !== "SQLITE_BUSY")
          throw error;
        if (!waited)
          onWait();
        waited = true;
        await new Promise((resolve4) => setTimeout(resolve4, RETRY_MS4));
      }
    }
  } finally {
    sqlite.pragma(`busy_timeout = ${busyTimeout}`);
  }
  try {
    await migrate();
    sqlite.exec("COMMIT");
  } catch (error) {
    if (sqlite.inTransaction)
      sqlite.exec("ROLLBACK");
    throw error;
  }
}
var RETRY_MS4;
var init_migration_lock = __esm({
  "dist/store/sqlite/migration-lock.js"() {
    "use strict";
    RETRY_MS4 = 50;
  }
});

// dist/store/sqlite/wal-probe.js
import { openSync as openSync4, readSync } from "node:fs";
function walProbe(databaseFile) {
  let fd;
  try {
    fd = openSync4(`${databaseFile}-shm`, "r");
  } catch {
    return void 0;
  }
  const current = Buffer.alloc(HEADER_BYTES);
  const seen = Buffer.alloc(HEADER_BYTES);
  let haveSeen = false;
  return {
    unchanged() {
      const read = readSync(fd, current, 0, HEADER_BYTES, 0);
      return haveSeen && read === HEADER_BYTES && current.equals(seen);
    },
    markSeen() {
      current.copy(seen);
      haveSeen = true;
    }
  };
}
var HEADER_BYTES;
var init_wal_probe = __esm({
  "dist/store/sqlite/wal-probe.js"() {
    "use strict";
    HEADER_BYTES = 48;
  }
});

// dist/store/sqlite/index.js
var sqlite_exports = {};
__export(sqlite_exports, {
  openSqliteStore: () => openSqliteStore
});
async function openSqliteStore(databaseUrl2, options = {}) {
  const connection = openSqlite(databaseUrl2, options.sqliteSynchronous);
  const { db } = connection;
  const releaseLock = connection.file ? holdStoreLock(connection.file) : () => {
  };
  try {
    const log = options.log ?? (() => {
    });
    await prepare(db, sqliteDialect, options.seedDefaults ?? true, log, (migrate) => inOneWriteTransaction(connection.sqlite, migrate, () => log({ file: connection.file }, "another process is writing to the store; migrations wait for it")));
  } catch (error) {
    await db.destroy();
    releaseLock();
    throw error;
  }
  const repos = repositories(db, sqliteDialect);
  const reader = connection.file ? sqliteReader(connection.file) : void 0;
  const cache = reader && sqliteHotCache(connection.sqlite, reader, walProbe(connection.file));
  if (cache)
    connection.onQueryBuilderWrite(cache.dropAll);
  const instruments = {};
  const groupCommit = sqliteGroupCommit(connection.sqlite, {
    onCommitted: cache?.committed,
    beforeCommit: sqliteHistoryUpsert(connection.sqlite),
    onGroupCommitted: (requests, rows) => instruments.groupCommitted?.(requests, rows)
  });
  const known = knownSensors(reader ? (ids) => ids.filter((id) => reader.sensorExists(id)) : repos.sensors.existing);
  const fast = reader && cache ? fileFastPaths(reader, cache, known) : memoryFastPaths(repos, known);
  const store = {
    kind: "sqlite",
    ...storeRepositories(repos, fast),
    polled: cache ?? { lastMeasurement: repos.measurements.last, actuator: repos.actuators.get },
    ingest: ingestion(groupCommit.insert, instruments, known),
    transaction: (work) => db.transaction().execute((trx) => work(repositories(trx, sqliteDialect))),
    exclusively: (_name2, work) => work(),
    remove: removalsOf(db, sqliteDialect, (work) => db.transaction().execute(work), known),
    instruments,
    exposedFiles: () => connection.file ? exposedStoreFiles(connection.file) : [],
    ping: (timeoutMs) => ping(db, timeoutMs),
    backupTo: (dest, progress) => connection.file ? backupSqliteFile(connection.file, dest, (copied, total) => progress({ part: "pages", copied, total })) : Promise.reject(new Error("a store in memory has no file to back up")),
    async close() {
      reader?.close();
      await db.destroy();
      releaseLock();
    }
  };
  return withInsides(store, { db, dialect: sqliteDialect });
}
function fileFastPaths(reader, cache, known) {
  return {
    existingSensors: known.existing,
    lastMeasurement: async (sensorId) => cache.lastMeasurement(sensorId),
    walkWindow: (sensorId, window) => walkWindow(reader, sensorId, window),
    actuator: async (actuatorId) => cache.actuator(actuatorId),
    bucketRows: async (read, sensorId, size, from, to) => reader.bucketRows(read, sensorId, size, from, to),
    dayStamps: async (sensorId, from, to) => reader.dayStamps(sensorId, from, to)
  };
}
function memoryFastPaths(repos, known) {
  return {
    existingSensors: known.existing,
    lastMeasurement: repos.measurements.last,
    walkWindow: repos.measurements.walkWindow,
    actuator: repos.actuators.get,
    bucketRows: repos.history.bucketRows,
    dayStamps: repos.history.dayStamps
  };
}
async function* walkWindow(reader, sensorId, window) {
  let after;
  for (; ; ) {
    const page = reader.windowPage(sensorId, after ? restAfter(window, after.timestamp) : window, after, ROWS_PER_PAGE);
    if (page.length > 0)
      yield page;
    if (page.length < ROWS_PER_PAGE)
      return;
    after = page[page.length - 1];
    await new Promise((resolve4) => setImmediate(resolve4));
  }
}
var init_sqlite = __esm({
  "dist/store/sqlite/index.js"() {
    "use strict";
    init_time_window();
    init_common();
    init_insides();
    init_repositories();
    init_measurements();
    init_connection();
    init_dialect();
    init_group_commit();
    init_history_upsert();
    init_hot_cache();
    init_reader();
    init_migration_lock();
    init_wal_probe();
    init_file_permissions();
    init_sqlite_file();
    init_store_lock();
  }
});

// dist/store/postgres/coalesce-reads.js
function coalesceReads(read) {
  const underWay = /* @__PURE__ */ new Map();
  function start(key, state) {
    const settle = (finish) => {
      for (const waiter of state.current)
        finish(waiter);
      if (state.next.length === 0) {
        underWay.delete(key);
        return;
      }
      state.current = state.next;
      state.next = [];
      start(key, state);
    };
    let reading;
    try {
      reading = read(key);
    } catch (error) {
      reading = Promise.reject(error);
    }
    reading.then((value) => settle((waiter) => waiter.resolve(value)), (error) => settle((waiter) => waiter.reject(error)));
  }
  return (key) => new Promise((resolve4, reject) => {
    const state = underWay.get(key);
    if (state) {
      state.next.push({ resolve: resolve4, reject });
      return;
    }
    const fresh = { current: [{ resolve: resolve4, reject }], next: [] };
    underWay.set(key, fresh);
    start(key, fresh);
  });
}
var init_coalesce_reads = __esm({
  "dist/store/postgres/coalesce-reads.js"() {
    "use strict";
  }
});

// dist/store/postgres/connection.js
import { Kysely as Kysely2, PostgresDialect } from "kysely";
import pg from "pg";
import Cursor from "pg-cursor";
function parsePgTimestamptz(text2) {
  const iso3 = text2.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00");
  return Date.parse(iso3);
}
function setPgTypeParsers() {
  if (pgTypesSet)
    return;
  pgTypesSet = true;
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parsePgTimestamptz);
}
function openPostgres(databaseUrl2, options = {}) {
  setPgTypeParsers();
  const statementTimeout = options.statementTimeoutMs ?? 6e4;
  const pool = new pg.Pool({
    connectionString: databaseUrl2,
    max: options.poolSize ?? 10,
    // No request waits longer than the documented limits: for a connection (connect timeout), for
    // a statement (statement_timeout on the server), and for a server that stopped answering
    // (query_timeout, the same limit kept by the client, which needs no reply to fire).
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5e3,
    idleTimeoutMillis: 3e4,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout,
    keepAlive: true,
    options: "-c TimeZone=UTC"
  });
  pool.on("error", () => {
  });
  pool.on("connect", (client) => client.on("error", () => {
  }));
  const db = new Kysely2({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
  return { db, pool };
}
var pgTypesSet;
var init_connection2 = __esm({
  "dist/store/postgres/connection.js"() {
    "use strict";
    pgTypesSet = false;
  }
});

// dist/store/postgres/dialect.js
import { sql as sql24 } from "kysely";
var ROWS_PER_ARRAY_INSERT, postgresDialect;
var init_dialect2 = __esm({
  "dist/store/postgres/dialect.js"() {
    "use strict";
    ROWS_PER_ARRAY_INSERT = 5e4;
    postgresDialect = {
      kind: "postgres",
      schema: {
        time: "timestamptz",
        float: "double precision",
        bool: "boolean",
        bytes: "bytea",
        bigId: "bigint",
        identity: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
        rowKey: (column) => column.primaryKey().generatedByDefaultAsIdentity()
      },
      time: (ms) => new Date(ms),
      // The one place a Date stands in for the column's epoch-ms read type (see Dialect.at).
      at: (ms) => new Date(ms),
      bool: (value) => value,
      timeType: sql24.raw("timestamptz"),
      // Epoch ms as an integer, read back with Number(), rather than timestamptz text parsed as a date
      // per row (a third of the time of a long read).
      timestampMs: () => sql24`(extract(epoch from ${sql24.ref("timestamp")}) * 1000)::int8`,
      async lockRows(db, table, ids) {
        if (ids.length === 0)
          return;
        const key = table === "sensors" ? "sensor_id" : "actuator_id";
        await sql24`select ${sql24.ref(key)} from ${sql24.table(table)} where ${sql24.ref(key)} in (${sql24.join([...new Set(ids)])}) order by ${sql24.ref(key)} for update`.execute(db);
      },
      forUpdate: (query) => query.forUpdate(),
      forKeyShare: (query) => query.forKeyShare(),
      forUpdateSkipLocked: (query) => query.forUpdate().skipLocked(),
      lockingTable(db, table, work) {
        const locked = async (trx) => {
          await sql24`lock table ${sql24.table(table)} in share row exclusive mode`.execute(trx);
          return work(trx);
        };
        return db.isTransaction ? locked(db) : db.transaction().execute(locked);
      },
      /** On a tie keeps the earliest row. */
      extremesPerBucket(db, selection, { first, count, span }) {
        const bucket = sql24`((extract(epoch from timestamp) * 1000)::int8 - ${first}::int8) * ${count}::int8 / ${span}::int8`;
        const ranked = selection.select([
          "measurement_id",
          "sensor_id",
          "value",
          "timestamp",
          sql24`row_number() over (partition by ${bucket} order by value, timestamp, measurement_id)`.as("low_rank"),
          sql24`row_number() over (partition by ${bucket} order by value desc, timestamp, measurement_id)`.as("high_rank")
        ]);
        return db.selectFrom(ranked.as("r")).select(["measurement_id", "sensor_id", "value", "timestamp"]).where((eb) => eb.or([eb("low_rank", "=", 1), eb("high_rank", "=", 1)])).orderBy("timestamp").orderBy("measurement_id").execute();
      },
      /**
       * Two array parameters per statement instead of three values per row: PostgreSQL parses one
       * large array far faster than thousands of placeholders (1,000,000 rows: 13 s → a few).
       * Milliseconds → timestamptz by interval arithmetic, exact (a double division is not).
       */
      async insertSeries(db, sensorId, timestamps, values) {
        for (let i = 0; i < timestamps.length; i += ROWS_PER_ARRAY_INSERT) {
          const end = Math.min(timestamps.length, i + ROWS_PER_ARRAY_INSERT);
          await sql24`insert into measurements (sensor_id, value, timestamp)
        select ${sensorId}, u.value, timestamptz 'epoch' + u.ms * interval '1 millisecond'
        from unnest(${Array.from(values.subarray(i, end))}::float8[], ${Array.from(timestamps.subarray(i, end))}::int8[]) as u(value, ms)`.execute(db);
        }
      },
      /**
       * Without fresh statistics, a table that grew from empty to millions of rows before autovacuum
       * came by is taken to be tiny, and each page of a long read sorts the whole rest of the window
       * instead of following the index.
       */
      async analyze(db, table) {
        await sql24`analyze ${sql24.table(table)}`.execute(db);
      },
      async continueIdentity(db, table, column) {
        await sql24`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce((select max(${sql24.ref(column)}) from ${sql24.table(table)}), 0) + 1, false)`.execute(db);
      }
    };
  }
});

// dist/store/postgres/group-commit.js
function postgresGroupCommit(insert, { maxInFlight = 2, maxRows = 1e4, onGroupCommitted } = {}) {
  const pending = [];
  let inFlight = 0;
  async function insertEachAlone(jobs) {
    await Promise.all(jobs.map(async (job) => {
      try {
        const stored = await insert(job.rows);
        onGroupCommitted?.(1, stored.length);
        job.resolve(stored);
      } catch (error) {
        job.reject(error);
      }
    }));
  }
  async function insertTogether(jobs) {
    if (jobs.length === 1)
      return insertEachAlone(jobs);
    let stored;
    try {
      stored = await insert(jobs.flatMap((job) => job.rows));
    } catch (error) {
      if (isStoreUnavailable(error)) {
        for (const job of jobs)
          job.reject(error);
        return;
      }
      return insertEachAlone(jobs);
    }
    onGroupCommitted?.(jobs.length, stored.length);
    let at = 0;
    for (const job of jobs) {
      job.resolve(stored.slice(at, at + job.rows.length));
      at += job.rows.length;
    }
  }
  function pump() {
    while (inFlight < maxInFlight && pending.length > 0) {
      const jobs = takeJobs(pending, maxRows);
      inFlight++;
      void insertTogether(jobs).finally(() => {
        inFlight--;
        pump();
      });
    }
  }
  return {
    /** Inserts the rows (all or none of them), resolving once they are committed. */
    insert(rows) {
      if (rows.length === 0)
        return Promise.resolve([]);
      return new Promise((resolve4, reject) => {
        pending.push({ rows, resolve: resolve4, reject });
        pump();
      });
    }
  };
}
var init_group_commit2 = __esm({
  "dist/store/postgres/group-commit.js"() {
    "use strict";
    init_errors3();
    init_ingest_jobs();
  }
});

// dist/store/postgres/hot-paths.js
function numbered(text2) {
  let n = 0;
  return text2.replace(/\?/g, () => `$${++n}`);
}
function postgresHotPaths(pool) {
  const last = {
    name: "sensorhub_last_measurement",
    text: "select measurement_id, sensor_id, value, timestamp from measurements where sensor_id = $1 order by timestamp desc, measurement_id desc limit 1"
  };
  const actuator = { name: "sensorhub_actuator", text: "select * from actuators where actuator_id = $1" };
  const insert = {
    name: "sensorhub_insert_measurements_history",
    text: `with kept as materialized (select count(*) as sensors from (select sensor_id from sensors where sensor_id = any($1::integer[]) order by sensor_id for key share) as locked), ins as (insert into measurements (sensor_id, value, timestamp) select s, v, timestamptz 'epoch' + ms * interval '1 millisecond' from unnest($1::integer[], $2::double precision[], $3::bigint[]) with ordinality as t(s, v, ms, n) cross join kept order by n returning measurement_id, sensor_id, value, (extract(epoch from timestamp) * 1000)::int8 as ms), sized as (select ins.*, z.size, ms - (((ms % z.size) + z.size) % z.size) as start from ins cross join (values ${KEPT_SIZES.map((s) => `(${s}::int8)`).join(", ")}) as z(size)), up as (insert into history_buckets as b (` + STAMPED_BUCKET_COLUMNS.join(", ") + ") select sensor_id, size, start, count(*), sum(value), " + pointsByArrayAgg({ value: "value", ts: "ms", id: "measurement_id" }) + ", $4::int8 from sized group by sensor_id, size, start order by sensor_id, size, start " + MERGE_ON_CONFLICT + ") select measurement_id from ins"
  };
  const bucketRead = (read) => ({
    name: `sensorhub_bucket_rows_${read}`,
    text: numbered(bucketReadSql(read)),
    rowMode: "array"
  });
  const bucketReads = { whole: bucketRead("whole"), values: bucketRead("values"), extremes: bucketRead("extremes") };
  const dayStamps = { name: "sensorhub_day_stamps", text: numbered(dayStampsSql), rowMode: "array" };
  return {
    /** A sensor's kept buckets of `size` starting in [from, to), in time order, as arrays of the columns of `read`. */
    async bucketRows(read, sensorId, size, from, to) {
      return (await pool.query({ ...bucketReads[read], values: [sensorId, size, from, to] })).rows;
    },
    /** The stamps of a sensor's daily buckets starting in [from, to), as [start, stamp] pairs in time order. */
    async dayStamps(sensorId, from, to) {
      return (await pool.query({ ...dayStamps, values: [sensorId, DAY2, from, to] })).rows;
    },
    async lastMeasurement(sensorId) {
      return (await pool.query({ ...last, values: [sensorId] })).rows[0];
    },
    async actuator(actuatorId) {
      return (await pool.query({ ...actuator, values: [actuatorId] })).rows[0];
    },
    /** Inserts the rows in order; ids follow the order of the rows (one statement takes them in sequence). */
    async insert(rows) {
      const result = await pool.query({
        ...insert,
        values: [rows.map((r) => r.sensor_id), rows.map((r) => r.value), rows.map((r) => r.timestamp), newBucketStamp()]
      });
      const ids = result.rows.map((r) => r.measurement_id).sort((a, b) => a - b);
      return rows.map((r, i) => ({ measurement_id: ids[i], sensor_id: r.sensor_id, value: r.value, timestamp: r.timestamp }));
    }
  };
}
var init_hot_paths = __esm({
  "dist/store/postgres/hot-paths.js"() {
    "use strict";
    init_bucket_sizes();
    init_history_sql();
  }
});

// dist/store/postgres/relay-channel.js
import { sql as sql25 } from "kysely";
import pg2 from "pg";
function postgresRelayChannel(databaseUrl2, db) {
  return {
    async publish(payload) {
      await sql25`select pg_notify(${CHANNEL}, ${payload})`.execute(db);
    },
    listen: (listener) => listenOn(databaseUrl2, listener)
  };
}
async function listenOn(databaseUrl2, listener) {
  let client;
  let stopped = false;
  let retryMs = RECONNECT_MIN_MS;
  let reconnectTimer;
  function received(message) {
    if (message.channel === CHANNEL && message.payload !== void 0)
      listener.message(message.payload);
  }
  async function connect2() {
    const next = new pg2.Client({ connectionString: databaseUrl2, keepAlive: true });
    next.on("notification", received);
    const lost = () => {
      if (client !== next)
        return;
      client = void 0;
      void next.end().catch(() => {
      });
      scheduleReconnect();
    };
    next.on("error", (error) => {
      listener.failed(error);
      lost();
    });
    next.on("end", lost);
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    if (stopped) {
      await next.end();
      return;
    }
    client = next;
  }
  function scheduleReconnect() {
    if (stopped || reconnectTimer)
      return;
    reconnectTimer = setTimeout(async () => {
      reconnectTimer = void 0;
      try {
        await connect2();
        retryMs = RECONNECT_MIN_MS;
        listener.restored();
      } catch (error) {
        listener.retryFailed(error);
        retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
        scheduleReconnect();
      }
    }, retryMs);
    reconnectTimer.unref();
  }
  await connect2();
  return async () => {
    stopped = true;
    clearTimeout(reconnectTimer);
    const last = client;
    client = void 0;
    await last?.end().catch(() => {
    });
  };
}
var CHANNEL, RECONNECT_MIN_MS, RECONNECT_MAX_MS;
var init_relay_channel = __esm({
  "dist/store/postgres/relay-channel.js"() {
    "use strict";
    CHANNEL = "sensorhub_changes";
    RECONNECT_MIN_MS = 250;
    RECONNECT_MAX_MS = 5e3;
  }
});

// dist/store/postgres/retry.js
async function withRetry(attempt, tries = 5) {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= tries || !RETRYABLE.has(error.code ?? ""))
        throw error;
      await new Promise((resolve4) => setTimeout(resolve4, Math.random() * 20 * i));
    }
  }
}
var RETRYABLE;
var init_retry = __esm({
  "dist/store/postgres/retry.js"() {
    "use strict";
    RETRYABLE = /* @__PURE__ */ new Set(["40P01", "40001"]);
  }
});

// dist/store/postgres/exclusive.js
async function exclusively(pool, name, work) {
  const holder = await pool.connect();
  try {
    const { rows } = await holder.query("select pg_try_advisory_lock($1, hashtext($2)) as locked", [JOB_LOCKS, name]);
    if (!rows[0]?.locked)
      return void 0;
    try {
      return await work();
    } finally {
      await holder.query("select pg_advisory_unlock($1, hashtext($2))", [JOB_LOCKS, name]).catch(() => {
      });
    }
  } finally {
    holder.release();
  }
}
var JOB_LOCKS;
var init_exclusive = __esm({
  "dist/store/postgres/exclusive.js"() {
    "use strict";
    JOB_LOCKS = 6169864;
  }
});

// dist/store/postgres/startup-lock.js
async function underStartupLock(pool, work) {
  const lockHolder = await pool.connect();
  try {
    await lockHolder.query("select pg_advisory_lock($1)", [STARTUP_LOCK]);
    await work();
  } finally {
    await lockHolder.query("select pg_advisory_unlock($1)", [STARTUP_LOCK]).catch(() => {
    });
    lockHolder.release();
  }
}
var STARTUP_LOCK;
var init_startup_lock = __esm({
  "dist/store/postgres/startup-lock.js"() {
    "use strict";
    STARTUP_LOCK = 6169863;
  }
});

// dist/store/backup/portable.js
import { rmSync } from "node:fs";
async function portableCopy(from, dest, progress) {
  const to = await openSqliteStore(`sqlite:${dest}`, { seedDefaults: false });
  const copied = {};
  try {
    await copyStore(from, to, (table, rows, total) => {
      copied[table] = rows;
      progress({ part: table, copied: rows, total });
    });
  } finally {
    await to.close();
    rmSync(lockFileOf(dest), { force: true });
  }
  return copied;
}
var init_portable = __esm({
  "dist/store/backup/portable.js"() {
    "use strict";
    init_copy();
    init_sqlite();
    init_store_lock();
  }
});

// dist/store/postgres/index.js
var postgres_exports = {};
__export(postgres_exports, {
  openPostgresStore: () => openPostgresStore
});
async function openPostgresStore(databaseUrl2, options = {}) {
  const { db, pool } = openPostgres(databaseUrl2, options);
  try {
    await underStartupLock(pool, () => prepare(db, postgresDialect, options.seedDefaults ?? true, options.log));
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const repos = repositories(db, postgresDialect);
  const hot = postgresHotPaths(pool);
  const instruments = {};
  const groupCommit = postgresGroupCommit((rows) => withRetry(() => hot.insert(rows)), {
    onGroupCommitted: (requests, rows) => instruments.groupCommitted?.(requests, rows)
  });
  const polled = { lastMeasurement: coalesceReads(hot.lastMeasurement), actuator: coalesceReads(hot.actuator) };
  const known = knownSensors(repos.sensors.existing);
  const fast = {
    existingSensors: known.existing,
    lastMeasurement: polled.lastMeasurement,
    walkWindow: repos.measurements.walkWindow,
    actuator: polled.actuator,
    bucketRows: hot.bucketRows,
    dayStamps: hot.dayStamps
  };
  const store = {
    kind: "postgres",
    ...storeRepositories(repos, fast),
    polled,
    ingest: ingestion(groupCommit.insert, instruments, known),
    transaction: (work) => withRetry(() => db.transaction().execute((trx) => work(repositories(trx, postgresDialect)))),
    exclusively: (name, work) => exclusively(pool, name, work),
    remove: removalsOf(db, postgresDialect, (work) => withRetry(() => db.transaction().execute(work)), known),
    relay: postgresRelayChannel(databaseUrl2, db),
    instruments,
    exposedFiles: () => [],
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: (timeoutMs) => ping(db, timeoutMs),
    backupTo: (dest, progress) => portableCopy(store, dest, progress),
    close: () => db.destroy()
  };
  return withInsides(store, { db, dialect: postgresDialect });
}
var init_postgres = __esm({
  "dist/store/postgres/index.js"() {
    "use strict";
    init_common();
    init_insides();
    init_repositories();
    init_coalesce_reads();
    init_connection2();
    init_dialect2();
    init_group_commit2();
    init_hot_paths();
    init_relay_channel();
    init_retry();
    init_exclusive();
    init_startup_lock();
    init_portable();
  }
});

// dist/store/index.js
async function openStore(databaseUrl2, options = {}) {
  if (databaseUrl2.startsWith("sqlite:"))
    return (await Promise.resolve().then(() => (init_sqlite(), sqlite_exports))).openSqliteStore(databaseUrl2, options);
  return (await Promise.resolve().then(() => (init_postgres(), postgres_exports))).openPostgresStore(databaseUrl2, options);
}
var init_store = __esm({
  "dist/store/index.js"() {
    "use strict";
    init_errors3();
    init_copy();
    init_sqlite_file();
    init_restore();
    init_paths();
    init_fsync();
  }
});

// dist/mqtt/backoff.js
function backoffDelay({ minMs, maxMs, jitter }, failures, random) {
  const base = Math.min(maxMs, minMs * 2 ** Math.min(failures, 30));
  return Math.max(1, Math.round(base * (1 - jitter + 2 * jitter * random)));
}
var BROKER_BACKOFF;
var init_backoff = __esm({
  "dist/mqtt/backoff.js"() {
    "use strict";
    BROKER_BACKOFF = { minMs: 500, maxMs: 3e4, jitter: 0.2 };
  }
});

// dist/mqtt/check.js
function describeIssues(issues) {
  return issues.map(({ loc, msg }) => {
    const where = loc[0] === "body" ? ["payload", ...loc.slice(1)] : loc;
    return `${where.join(".")}: ${msg}`;
  }).join("; ");
}
function measurementBodyCheck() {
  const validate = validatorCompiler()({ schema: MeasurementBody, httpPart: "body", method: "POST", url: "/measurements" });
  return (body, batch) => {
    const result = validate(body);
    if (!result)
      return { ok: false, reason: describeIssues(validationIssues(validate.errors ?? [], "body")) };
    const value = result.value;
    return { ok: true, items: batch ? value : [value], batch };
  };
}
var init_check = __esm({
  "dist/mqtt/check.js"() {
    "use strict";
    init_errors2();
    init_validation();
    init_measurement();
  }
});

// dist/mqtt/payload.js
function oversizeReason(payload) {
  if (payload.length <= MAX_PAYLOAD_BYTES2)
    return void 0;
  return `the payload is ${payload.length} bytes, over the limit of ${MAX_PAYLOAD_BYTES2} bytes (64 KiB)`;
}
function withSensor(item, sensorId, where) {
  const named = item.sensor_id;
  if (named !== void 0 && String(named).trim() !== String(sensorId)) {
    return `${where}sensor_id ${JSON.stringify(named).slice(0, 40)} is not the sensor of the topic (${sensorId})`;
  }
  return { ...item, sensor_id: sensorId };
}
function parseMeasurementPayload(sensorId, payload) {
  const oversize = oversizeReason(payload);
  if (oversize)
    return { ok: false, reason: oversize };
  let text2;
  try {
    text2 = decoder.decode(payload).trim();
  } catch {
    return { ok: false, reason: "the payload is not UTF-8 text" };
  }
  if (text2 === "")
    return { ok: false, reason: `empty payload: expected ${FORMS}` };
  if (startsLikeNumber(text2) && text2.length > MAX_NUMERIC_TEXT) {
    return { ok: false, reason: `a number longer than ${MAX_NUMERIC_TEXT} characters is refused (${text2.length} characters)` };
  }
  if (isNumericText(text2, "number")) {
    const value = Number(text2);
    if (!Number.isFinite(value))
      return { ok: false, reason: `the value ${text2.slice(0, 40)} is not a finite number` };
    return { ok: true, body: { sensor_id: sensorId, value }, batch: false };
  }
  let parsed;
  try {
    parsed = JSON.parse(text2);
  } catch (error) {
    return { ok: false, reason: `malformed JSON (${error.message}): expected ${FORMS}` };
  }
  if (isObject(parsed)) {
    const item = withSensor(parsed, sensorId, "");
    return typeof item === "string" ? { ok: false, reason: item } : { ok: true, body: item, batch: false };
  }
  if (Array.isArray(parsed)) {
    const items = [];
    for (const [index, element] of parsed.entries()) {
      if (!isObject(element))
        return { ok: false, reason: `element ${index} of the array is not an object {"value": \u2026, "timestamp"?: \u2026}` };
      const item = withSensor(element, sensorId, `element ${index}: `);
      if (typeof item === "string")
        return { ok: false, reason: item };
      items.push(item);
    }
    return { ok: true, body: items, batch: true };
  }
  return { ok: false, reason: `expected ${FORMS}, got ${parsed === null ? "null" : typeof parsed}` };
}
function excerpt(payload, maxChars = 200) {
  const text2 = Buffer.from(payload.subarray(0, maxChars * 4)).toString("utf8");
  const chars = [...text2];
  return chars.length > maxChars || payload.length > maxChars * 4 ? `${chars.slice(0, maxChars).join("")}\u2026` : text2;
}
var MAX_PAYLOAD_BYTES2, startsLikeNumber, FORMS, decoder, isObject;
var init_payload = __esm({
  "dist/mqtt/payload.js"() {
    "use strict";
    init_numeric_text();
    MAX_PAYLOAD_BYTES2 = 64 * 1024;
    startsLikeNumber = (text2) => /^[-+.\d]/.test(text2);
    FORMS = 'a number (6.42), a JSON object {"value": \u2026, "timestamp"?: \u2026} or a JSON array of such objects';
    decoder = new TextDecoder("utf-8", { fatal: true });
    isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
  }
});

// dist/mqtt/together.js
function together(all, alone, done) {
  let gathered;
  function run() {
    const parts = gathered ?? [];
    gathered = void 0;
    const eachAlone = () => {
      for (const part of parts)
        alone(part.input).then(part.resolve, part.reject);
    };
    if (parts.length === 1)
      return eachAlone();
    all(parts.map((part) => part.input)).then(() => {
      for (const part of parts)
        part.resolve(done);
    }, eachAlone);
  }
  return (input) => new Promise((resolve4, reject) => {
    if (!gathered) {
      gathered = [];
      setImmediate(run);
    }
    gathered.push({ input, resolve: resolve4, reject });
  });
}
var init_together = __esm({
  "dist/mqtt/together.js"() {
    "use strict";
  }
});

// dist/mqtt/topics.js
function topicsOf(prefix) {
  return {
    /** Subscribed: devices publish measurements here. */
    measurementsFilter: `${prefix}/sensors/+/measurements`,
    /** Subscribed: a controller reports a run here. */
    activatedFilter: `${prefix}/actuators/+/activated`,
    last: (sensorId) => `${prefix}/sensors/${sensorId}/last`,
    state: (actuatorId) => `${prefix}/actuators/${actuatorId}/state`,
    /** Each dose recorded (§15), not retained. */
    doses: (actuatorId) => `${prefix}/actuators/${actuatorId}/doses`,
    alerts: `${prefix}/alerts`,
    errors: `${prefix}/errors`
  };
}
function addressOf(prefix, topic) {
  if (!topic.startsWith(`${prefix}/`))
    return { kind: "other" };
  const levels = topic.slice(prefix.length + 1).split("/");
  if (levels.length !== 3)
    return { kind: "other" };
  const [collection, id, action] = levels;
  const kind = collection === "sensors" && action === "measurements" ? "measurements" : collection === "actuators" && action === "activated" ? "activated" : void 0;
  if (!kind)
    return { kind: "other" };
  const noun = kind === "measurements" ? "sensor" : "actuator";
  if (!/^\d{1,10}$/.test(id) || Number(id) > MAX_ID) {
    return { kind: "bad-id", reason: `the ${noun} id in the topic must be a whole number from 0 to ${MAX_ID}, got "${id.slice(0, 40)}"` };
  }
  return kind === "measurements" ? { kind, sensorId: Number(id) } : { kind, actuatorId: Number(id) };
}
var init_topics = __esm({
  "dist/mqtt/topics.js"() {
    "use strict";
    init_schema_common();
  }
});

// dist/mqtt/ingest.js
async function alreadyStored(store, sensorId, items) {
  const times = items.map((item) => item.timestamp === void 0 ? NaN : parseDateTime(item.timestamp));
  if (times.some((t) => Number.isNaN(t)))
    return false;
  const start = Math.min(...times);
  const end = Math.max(...times) + 1;
  const found = /* @__PURE__ */ new Set();
  for await (const page of store.measurements.walkWindow(sensorId, { start, end, endInclusive: false })) {
    for (const row of page)
      found.add(`${row.timestamp}:${row.value}`);
  }
  return items.every((item, index) => found.has(`${times[index]}:${item.value}`));
}
function mqttIngest(deps) {
  const { prefix, services, store, metrics, refuse, log, random = Math.random } = deps;
  const check = measurementBodyCheck();
  let stopped = false;
  let waiting = 0;
  async function commit(topic, write) {
    let unexpected = 0;
    let attempt = 0;
    try {
      for (; ; attempt++) {
        if (stopped)
          throw new IngestStopped();
        try {
          await write();
          return void 0;
        } catch (error) {
          if (error instanceof NotFound)
            return { refused: "unknown", reason: error.message };
          if (error instanceof InvalidInput)
            return { refused: "validation", reason: error.issues.map((i) => i.msg).join("; ") };
          const diskFull = isDiskFull(error);
          if (!diskFull && !isStoreUnavailable(error) && ++unexpected >= UNEXPECTED_ATTEMPTS) {
            log.error({ err: error, topic }, "MQTT message could not be stored; let go after repeated failures");
            return { refused: "internal", reason: "the service failed to store it (see its log)" };
          }
          if (attempt === 0 && waiting++ === 0) {
            log.warn({ err: error, topic }, diskFull ? "MQTT message waits for space on the disk: it is full" : "MQTT message waits for the store");
          }
          await new Promise((resolve4) => setTimeout(resolve4, backoffDelay(STORE_RETRY, attempt, random())));
        }
      }
    } finally {
      if (attempt > 0)
        waiting--;
    }
  }
  const recordOne = together((readings) => {
    if (stopped)
      return Promise.reject(new IngestStopped());
    return services.measurements.record(readings.map((reading) => reading.items[0]), true);
  }, (reading) => commit(reading.topic, () => services.measurements.record(reading.items, false)), void 0);
  async function measurements(topic, payload, packet, sensorId) {
    const parsed = parseMeasurementPayload(sensorId, payload);
    if (!parsed.ok)
      return refuse(topic, payload, parsed.reason, "payload");
    const checked = check(parsed.body, parsed.batch);
    if (!checked.ok)
      return refuse(topic, payload, checked.reason, "validation");
    const { items, batch } = checked;
    if (packet.dup && await alreadyStored(store, sensorId, items).catch(() => false)) {
      metrics.duplicate();
      return;
    }
    const refusal3 = batch ? await commit(topic, () => services.measurements.record(items, batch)) : await recordOne({ topic, items });
    if (refusal3)
      return refuse(topic, payload, refusal3.reason, refusal3.refused);
    metrics.stored();
  }
  async function activated(topic, payload, actuatorId) {
    const refusal3 = await commit(topic, () => services.actuators.markActivated(actuatorId));
    if (refusal3)
      return refuse(topic, payload, refusal3.reason, refusal3.refused);
    metrics.stored();
  }
  return {
    async receive(topic, payload, packet) {
      metrics.received();
      const address = addressOf(prefix, topic);
      if (address.kind === "measurements" || address.kind === "activated") {
        if (packet.retain)
          return refuse(topic, payload, RETAINED_REASON, "retained");
        const oversize = oversizeReason(payload);
        if (oversize)
          return refuse(topic, payload, oversize, "payload");
      }
      switch (address.kind) {
        case "measurements":
          return measurements(topic, payload, packet, address.sensorId);
        case "activated":
          return activated(topic, payload, address.actuatorId);
        case "bad-id":
          return refuse(topic, payload, address.reason, "topic");
        default:
          return refuse(topic, payload, "not a topic the service takes messages on", "topic");
      }
    },
    stop() {
      stopped = true;
    }
  };
}
var STORE_RETRY, UNEXPECTED_ATTEMPTS, RETAINED_REASON, IngestStopped;
var init_ingest = __esm({
  "dist/mqtt/ingest.js"() {
    "use strict";
    init_date_time();
    init_errors();
    init_store();
    init_backoff();
    init_check();
    init_payload();
    init_together();
    init_topics();
    STORE_RETRY = { minMs: 100, maxMs: 5e3, jitter: 0.2 };
    UNEXPECTED_ATTEMPTS = 5;
    RETAINED_REASON = "a retained message is not stored (the broker replays it at every subscription); publish measurements and activations without the retain flag";
    IngestStopped = class extends Error {
    };
  }
});

// dist/mqtt/acks.js
function writePubacks(ids) {
  const bytes = Buffer.allocUnsafe(4 * ids.length);
  ids.forEach((id, index) => {
    bytes[4 * index] = 64;
    bytes[4 * index + 1] = 2;
    bytes.writeUInt16BE(id, 4 * index + 2);
  });
  return bytes;
}
function orderedAcks(write) {
  const queue = [];
  let head = 0;
  let open2 = true;
  let scheduled = false;
  function flush() {
    scheduled = false;
    const due = [];
    while (head < queue.length && queue[head].settled) {
      const entry2 = queue[head++];
      if (entry2.acknowledge)
        due.push(entry2.messageId);
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    if (due.length > 0 && open2)
      open2 = write(writePubacks(due));
  }
  return {
    /** A message received: its acknowledgement takes the next place in line. */
    received(messageId) {
      const entry2 = { settled: false, acknowledge: false, messageId };
      queue.push(entry2);
      return entry2;
    },
    /** The message is handled: acknowledged (`acknowledge`) or left for redelivery. */
    settle(entry2, acknowledge) {
      entry2.settled = true;
      entry2.acknowledge = acknowledge;
      if (!scheduled) {
        scheduled = true;
        process.nextTick(flush);
      }
    },
    /** Sends what is due now rather than at the end of this turn (the connection is about to close). */
    flush,
    /** Messages received and not yet settled. */
    waiting: () => queue.length - head
  };
}
var init_acks = __esm({
  "dist/mqtt/acks.js"() {
    "use strict";
  }
});

// dist/mqtt/link.js
import { connect } from "mqtt";
function brokerLink(deps) {
  const { settings, log, backoff = BROKER_BACKOFF, random = Math.random } = deps;
  let state = "connecting";
  let failures = 0;
  let everConnected = false;
  let closing = false;
  const handling = /* @__PURE__ */ new Set();
  let acks;
  function acksOfThisConnection() {
    const stream = client.stream;
    if (acks?.stream !== stream) {
      const line = orderedAcks((bytes) => {
        if (client.stream !== stream || !client.connected || stream.destroyed)
          return false;
        stream.write(bytes);
        return true;
      });
      acks = { stream, line };
    }
    return acks.line;
  }
  function track(work) {
    handling.add(work);
    void work.finally(() => handling.delete(work));
  }
  const options = {
    protocolVersion: 5,
    clientId: settings.clientId,
    clean: false,
    properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS, receiveMaximum: RECEIVE_MAXIMUM },
    username: settings.username,
    password: settings.password,
    reconnectPeriod: backoff.minMs,
    // A broker that refuses the connection for a while (overloaded, restarting) is tried again too.
    reconnectOnConnackError: true,
    connectTimeout: 1e4,
    keepalive: 30,
    // Subscriptions are made at every connection (see `connected`), whether the session was kept or not.
    resubscribe: false,
    // While the link is down nothing is queued: publications are state, sent afresh on reconnection.
    queueQoSZero: false,
    // MQTT.js's debug log gathers its arguments at a dozen calls per message even when off.
    log: () => {
    },
    customHandleAcks: (topic, payload, packet, ack) => {
      const line = acksOfThisConnection();
      const pending = line.received(packet.messageId);
      const earlier3 = packet.dup && handling.size > 0 ? Promise.allSettled(handling) : void 0;
      const handled = earlier3 ? earlier3.then(() => deps.receive(topic, payload, packet)) : deps.receive(topic, payload, packet);
      track(handled.then(
        () => line.settle(pending, true),
        // Closing: not acknowledged, so delivered again next time.
        () => line.settle(pending, false)
      ));
      ack(HELD);
    }
  };
  const client = connect(settings.url, options);
  client.on("message", (topic, payload, packet) => {
    if (packet.qos === 0)
      track(deps.receive(topic, payload, packet).catch(() => void 0));
  });
  client.on("connect", (connack) => {
    state = "connected";
    failures = 0;
    client.options.reconnectPeriod = backoff.minMs;
    const reconnect = everConnected;
    everConnected = true;
    log.info({ broker: settings.url, clientId: settings.clientId, sessionPresent: connack.sessionPresent }, "MQTT connected");
    if (reconnect)
      deps.reconnected?.();
    deps.connected({ resumed: connack.sessionPresent, reconnect });
  });
  client.on("reconnect", () => {
    state = "connecting";
    failures += 1;
    client.options.reconnectPeriod = backoffDelay(backoff, failures, random());
  });
  client.on("close", () => {
    if (state === "connected" && !closing)
      log.warn({ broker: settings.url }, "MQTT link lost; reconnecting");
    state = "disconnected";
  });
  client.on("error", (error) => {
    if (error === HELD)
      return;
    if (!closing && (failures <= 2 || failures % 10 === 0))
      log.warn({ err: error, broker: settings.url, attempts: failures }, "MQTT link error");
  });
  return {
    state: () => state,
    connected: () => client.connected,
    /** Publishes when the link is up; otherwise nothing is sent (and false is answered). */
    publish(topic, payload, qos, retain) {
      if (!client.connected || closing)
        return false;
      client.publish(topic, payload, { qos, retain }, (error) => {
        if (error && !closing)
          log.warn({ err: error, topic }, "MQTT publish failed");
      });
      return true;
    },
    /**
     * Subscribes for QoS 1 without the retained messages (`rh: 2`: a retained message would be
     * replayed, and stored again, at every start), keeping the retain flag of what arrives (`rap`)
     * so the ingest can tell a retained publication and refuse it too.
     */
    async subscribe(filters) {
      await client.subscribeAsync(filters, { qos: 1, rh: 2, rap: true });
    },
    /**
     * Lets the messages in hand finish (their commits and acknowledgements), then disconnects:
     * the session stays on the broker, which keeps what arrives meanwhile for the next start.
     */
    async close() {
      closing = true;
      client.options.reconnectPeriod = 0;
      await Promise.race([Promise.allSettled(handling), new Promise((resolve4) => setTimeout(resolve4, 5e3).unref())]);
      acks?.line.flush();
      await new Promise((resolve4) => {
        const timer = setTimeout(() => client.end(true, {}, () => resolve4()), 2e3).unref();
        client.end(false, {}, () => {
          clearTimeout(timer);
          resolve4();
        });
      });
    }
  };
}
var SESSION_EXPIRY_SECONDS, RECEIVE_MAXIMUM, HELD;
var init_link = __esm({
  "dist/mqtt/link.js"() {
    "use strict";
    init_acks();
    init_backoff();
    init_sharing();
    SESSION_EXPIRY_SECONDS = 7 * 24 * 3600;
    RECEIVE_MAXIMUM = 20;
    HELD = new Error("acknowledgement held until the message is committed");
  }
});

// dist/mqtt/metrics.js
import { Counter as Counter3, Gauge as Gauge3 } from "prom-client";
function mqttMetrics(registry, connected) {
  const received = new Counter3({
    name: "sensorhub_mqtt_messages_received_total",
    help: "MQTT messages received on the subscribed topics (measurements and activations).",
    registers: [registry]
  });
  const stored = new Counter3({
    name: "sensorhub_mqtt_messages_stored_total",
    help: "MQTT messages whose measurements (or activation) were committed, then acknowledged.",
    registers: [registry]
  });
  const duplicates = new Counter3({
    name: "sensorhub_mqtt_messages_duplicate_total",
    help: "Redelivered MQTT messages found already stored: acknowledged without storing them again.",
    registers: [registry]
  });
  const refused = new Counter3({
    name: "sensorhub_mqtt_messages_refused_total",
    help: "MQTT messages refused (acknowledged, not stored, reported on <prefix>/errors), by reason.",
    labelNames: ["reason"],
    registers: [registry]
  });
  const published = new Counter3({
    name: "sensorhub_mqtt_messages_published_total",
    help: "MQTT messages published by the service, by kind.",
    labelNames: ["kind"],
    registers: [registry]
  });
  const reconnects = new Counter3({
    name: "sensorhub_mqtt_reconnects_total",
    help: "Connections to the MQTT broker made again after the link was lost.",
    registers: [registry]
  });
  new Gauge3({
    name: "sensorhub_mqtt_connected",
    help: "Whether the link to the MQTT broker is up (1) or not (0).",
    registers: [registry],
    collect() {
      this.set(connected() ? 1 : 0);
    }
  });
  return {
    received: () => received.inc(),
    stored: () => stored.inc(),
    duplicate: () => duplicates.inc(),
    refused: (reason2) => refused.labels(reason2).inc(),
    published: (kind) => published.labels(kind).inc(),
    reconnected: () => reconnects.inc()
  };
}
var init_metrics = __esm({
  "dist/mqtt/metrics.js"() {
    "use strict";
  }
});

// dist/mqtt/discovery.js
function classify(type, unit) {
  const key = unit.trim().toLowerCase();
  const asIs = { unit_of_measurement: unit };
  switch (type) {
    case "temperature":
      return TEMPERATURE_UNITS[key] ? { device_class: "temperature", unit_of_measurement: TEMPERATURE_UNITS[key] } : asIs;
    case "humidity":
      return key === "%" ? { device_class: "humidity", unit_of_measurement: "%" } : asIs;
    case "ph":
      return { device_class: "ph" };
    case "ec":
      return CONDUCTIVITY_UNITS[key] ? { device_class: "conductivity", unit_of_measurement: CONDUCTIVITY_UNITS[key] } : asIs;
    case "water_level":
      return DISTANCE_UNITS[key] ? { device_class: "distance", unit_of_measurement: DISTANCE_UNITS[key] } : asIs;
    default:
      return asIs;
  }
}
function device(context, prototypeId, prototype) {
  return {
    identifiers: [`${nodeIdOf(context.prefix)}_prototype_${prototypeId}`],
    name: prototype?.prototype_name ?? `Prototype ${prototypeId}`,
    manufacturer: "sensorhub",
    model: "prototype"
  };
}
function sensorConfigTopic(context, sensorId) {
  return `${context.discoveryPrefix}/sensor/${nodeIdOf(context.prefix)}/sensor_${sensorId}/config`;
}
function actuatorConfigTopic(context, actuatorId) {
  return `${context.discoveryPrefix}/binary_sensor/${nodeIdOf(context.prefix)}/actuator_${actuatorId}/config`;
}
function sensorConfig(context, sensor, prototype) {
  const uniqueId = `${nodeIdOf(context.prefix)}_sensor_${sensor.sensor_id}`;
  const config = {
    name: sensor.sensor_name ?? `Sensor ${sensor.sensor_id} (${sensor.sensor_type.replace(/_/g, " ")})`,
    unique_id: uniqueId,
    object_id: uniqueId,
    state_topic: context.topics.last(sensor.sensor_id),
    value_template: "{{ value_json.value }}",
    json_attributes_topic: context.topics.last(sensor.sensor_id),
    json_attributes_template: '{{ {"timestamp": value_json.timestamp, "measurement_id": value_json.measurement_id} | tojson }}',
    state_class: "measurement",
    ...classify(sensor.sensor_type, sensor.sensor_unit),
    device: device(context, sensor.prototype_id, prototype)
  };
  return { topic: sensorConfigTopic(context, sensor.sensor_id), payload: JSON.stringify(config) };
}
function actuatorConfig(context, actuator, prototypeId, prototype) {
  const uniqueId = `${nodeIdOf(context.prefix)}_actuator_${actuator.actuator_id}`;
  const config = {
    name: actuator.actuator_name ?? `${actuator.actuator_type.replace(/_/g, " ")} ${actuator.actuator_id}`,
    unique_id: uniqueId,
    object_id: uniqueId,
    state_topic: context.topics.state(actuator.actuator_id),
    value_template: "{{ 'ON' if value_json.activate else 'OFF' }}",
    json_attributes_topic: context.topics.state(actuator.actuator_id),
    device_class: "running",
    device: device(context, prototypeId, prototype)
  };
  return { topic: actuatorConfigTopic(context, actuator.actuator_id), payload: JSON.stringify(config) };
}
var nodeIdOf, TEMPERATURE_UNITS, CONDUCTIVITY_UNITS, DISTANCE_UNITS;
var init_discovery = __esm({
  "dist/mqtt/discovery.js"() {
    "use strict";
    nodeIdOf = (prefix) => prefix.replace(/[^a-zA-Z0-9_-]/g, "_");
    TEMPERATURE_UNITS = {
      c: "\xB0C",
      "\xB0c": "\xB0C",
      celsius: "\xB0C",
      degc: "\xB0C",
      f: "\xB0F",
      "\xB0f": "\xB0F",
      fahrenheit: "\xB0F",
      k: "K",
      kelvin: "K"
    };
    CONDUCTIVITY_UNITS = { "ms/cm": "mS/cm", "\xB5s/cm": "\xB5S/cm", "us/cm": "\xB5S/cm" };
    DISTANCE_UNITS = { mm: "mm", cm: "cm", m: "m", in: "in", ft: "ft" };
  }
});

// dist/mqtt/known-devices.js
function knownDevices({ out, topics, discovery, last }) {
  const sensors = /* @__PURE__ */ new Map();
  const actuators = /* @__PURE__ */ new Map();
  const prototypes = /* @__PURE__ */ new Map();
  function publishSensorConfig(sensor) {
    if (!discovery)
      return;
    const { topic, payload } = sensorConfig(discovery, sensor, prototypes.get(sensor.prototype_id));
    out.send("discovery", topic, payload, 1, true);
  }
  function publishActuatorConfig(actuator) {
    const sensor = sensors.get(actuator.sensor_id);
    if (!discovery || !sensor)
      return;
    const { topic, payload } = actuatorConfig(discovery, actuator, sensor.prototype_id, prototypes.get(sensor.prototype_id));
    out.send("discovery", topic, payload, 1, true);
  }
  function publishActuatorsOf(sensorId) {
    for (const actuator of actuators.values())
      if (actuator.sensor_id === sensorId)
        publishActuatorConfig(actuator);
  }
  function forgetActuator(actuatorId) {
    actuators.delete(actuatorId);
    out.clear("state", topics.state(actuatorId));
    if (discovery)
      out.clear("discovery", actuatorConfigTopic(discovery, actuatorId));
  }
  function forgetSensor(sensorId) {
    sensors.delete(sensorId);
    last.forget(sensorId);
    if (discovery)
      out.clear("discovery", sensorConfigTopic(discovery, sensorId));
    for (const actuator of [...actuators.values()])
      if (actuator.sensor_id === sensorId)
        forgetActuator(actuator.actuator_id);
  }
  function knowSensor(sensor) {
    sensors.set(sensor.sensor_id, sensor);
    publishSensorConfig(sensor);
  }
  return {
    forgetSensor,
    forgetActuator,
    sensor: knowSensor,
    /** A sensor created or changed: moved to another prototype, its actuators' device moves too. */
    sensorChanged(sensor) {
      knowSensor(sensor);
      publishActuatorsOf(sensor.sensor_id);
    },
    /** An actuator created, changed or activated, or read at a (re)connection. */
    actuator(actuator, activated = false) {
      const before = actuators.get(actuator.actuator_id);
      actuators.set(actuator.actuator_id, actuator);
      if (!activated || !before)
        publishActuatorConfig(actuator);
    },
    prototype(prototype) {
      prototypes.set(prototype.prototype_id, prototype);
    },
    forgetPrototype(prototypeId) {
      prototypes.delete(prototypeId);
    },
    /** Renamed: the Home Assistant device of its sensors and actuators carries the name. */
    prototypeRenamed(prototype) {
      prototypes.set(prototype.prototype_id, prototype);
      for (const sensor of sensors.values()) {
        if (sensor.prototype_id !== prototype.prototype_id)
          continue;
        publishSensorConfig(sensor);
        publishActuatorsOf(sensor.sensor_id);
      }
    }
  };
}
var init_known_devices = __esm({
  "dist/mqtt/known-devices.js"() {
    "use strict";
    init_discovery();
  }
});

// dist/mqtt/last-values.js
function lastValues({ out, topics, store }) {
  const newest = /* @__PURE__ */ new Map();
  const pending = /* @__PURE__ */ new Map();
  let flushScheduled = false;
  let lastFlushAt = -Infinity;
  function flush() {
    flushScheduled = false;
    lastFlushAt = performance.now();
    for (const row of pending.values())
      out.send("last", topics.last(row.sensor_id), measurementJson(row), 0, true);
    pending.clear();
  }
  function offer(row) {
    if (!isNewer2(row, newest.get(row.sensor_id)))
      return;
    newest.set(row.sensor_id, row);
    pending.set(row.sensor_id, row);
    if (flushScheduled)
      return;
    flushScheduled = true;
    const wait = lastFlushAt + LAST_INTERVAL_MS - performance.now();
    if (wait > 0)
      setTimeout(flush, wait);
    else
      setImmediate(flush);
  }
  return {
    offer,
    /** The newest measurement published for a sensor. */
    newestOf: (sensorId) => newest.get(sensorId),
    /** After a delete or a bulk replacement the newest measurement is read again. */
    async reread(sensorId) {
      const row = await store.measurements.last(sensorId);
      newest.delete(sensorId);
      pending.delete(sensorId);
      if (row)
        offer(row);
      else
        out.clear("last", topics.last(sensorId));
    },
    /** A deleted sensor: its topic is emptied. */
    forget(sensorId) {
      newest.delete(sensorId);
      pending.delete(sensorId);
      out.clear("last", topics.last(sensorId));
    },
    /** At a (re)connection: the sensor's newest value, the one read or a newer one heard meanwhile, published at once. */
    republish(sensorId, read) {
      const known = newest.get(sensorId);
      const row = read && isNewer2(read, known) ? read : known;
      if (!row)
        return;
      newest.set(sensorId, row);
      out.send("last", topics.last(sensorId), measurementJson(row), 0, true);
    }
  };
}
var LAST_INTERVAL_MS, isNewer2;
var init_last_values = __esm({
  "dist/mqtt/last-values.js"() {
    "use strict";
    init_json_text();
    LAST_INTERVAL_MS = 50;
    isNewer2 = (row, than) => !than || row.timestamp > than.timestamp || row.timestamp === than.timestamp && row.measurement_id > than.measurement_id;
  }
});

// dist/mqtt/publications.js
function publications(link, metrics) {
  const pendingClears = /* @__PURE__ */ new Set();
  return {
    send(kind, topic, payload, qos, retain) {
      if (link.publish(topic, payload, qos, retain))
        metrics.published(kind);
    },
    /** Empties a retained topic (a deleted sensor or actuator), now or at the next connection. */
    clear(kind, topic) {
      if (link.publish(topic, "", 1, true))
        metrics.published(kind);
      else
        pendingClears.add(topic);
    },
    /** Empties the topics left from while the link was down; false when the link dropped meanwhile. */
    clearPending() {
      for (const topic of [...pendingClears]) {
        if (!link.publish(topic, "", 1, true))
          return false;
        pendingClears.delete(topic);
      }
      return true;
    }
  };
}
var init_publications = __esm({
  "dist/mqtt/publications.js"() {
    "use strict";
  }
});

// dist/mqtt/publisher.js
function mqttPublisher({ link, topics, discovery, store, services, bus, metrics, log }) {
  const out = publications(link, metrics);
  const last = lastValues({ out, topics, store });
  const devices = knownDevices({ out, topics, discovery, last });
  const unsubscribe = [];
  const failed = (what) => (error) => log.warn({ err: error }, `MQTT: ${what} failed`);
  const reread = (sensorId) => last.reread(sensorId).catch(failed("reading the newest measurement"));
  return {
    start() {
      unsubscribe.push(
        bus.subscribe("measurements", ({ rows }) => {
          for (const row of rows)
            last.offer(row);
        }),
        bus.subscribe("measurementDeleted", ({ measurement }) => {
          if (last.newestOf(measurement.sensor_id)?.measurement_id === measurement.measurement_id)
            reread(measurement.sensor_id);
        }),
        bus.subscribe("generated", ({ sensorIds }) => {
          for (const id of sensorIds)
            reread(id);
        }),
        bus.subscribe("decision", ({ actuator, state }) => {
          out.send("state", topics.state(actuator.actuator_id), activationJson(state), 1, true);
        }),
        // Each alert event and each dose once across instances: by the instance that committed it, not by those it was relayed to.
        bus.subscribe("alert", (change) => {
          if (!isRelayed(change))
            out.send("alert", topics.alerts, JSON.stringify(change), 1, false);
        }),
        bus.subscribe("dose", (change) => {
          if (!isRelayed(change))
            out.send("dose", topics.doses(change.dose.actuator_id), JSON.stringify(doseView(change.dose)), 1, false);
        }),
        bus.subscribe("sensor", (change) => change.action === "deleted" ? devices.forgetSensor(change.sensorId) : devices.sensorChanged(change.sensor)),
        bus.subscribe("actuator", (change) => change.action === "deleted" ? devices.forgetActuator(change.actuatorId) : devices.actuator(change.actuator, change.action === "activated")),
        bus.subscribe("prototype", (change) => {
          if (change.action === "deleted")
            devices.forgetPrototype(change.prototypeId);
          else if (change.action === "updated")
            devices.prototypeRenamed(change.prototype);
          else
            devices.prototype(change.prototype);
        })
      );
    },
    /** Everything a subscriber should find on the broker, published at every (re)connection. */
    async snapshot() {
      if (!out.clearPending())
        return;
      const [allPrototypes, allSensors, allActuators] = await Promise.all([
        store.prototypes.list(),
        store.sensors.list(),
        store.actuators.all()
      ]);
      for (const prototype of allPrototypes)
        devices.prototype(prototype);
      for (const sensor of allSensors) {
        devices.sensor(sensor);
        last.republish(sensor.sensor_id, await store.measurements.last(sensor.sensor_id));
      }
      for (const actuator of allActuators) {
        devices.actuator(actuator);
        const state = await services.actuators.decision(actuator.actuator_id).catch(() => void 0);
        if (state)
          out.send("state", topics.state(actuator.actuator_id), activationJson(state), 1, true);
      }
    },
    stop() {
      for (const stop of unsubscribe)
        stop();
    }
  };
}
var init_publisher = __esm({
  "dist/mqtt/publisher.js"() {
    "use strict";
    init_dose_view();
    init_json_text();
    init_postgres_relay();
    init_known_devices();
    init_last_values();
    init_publications();
    init_last_values();
  }
});

// dist/mqtt/bridge.js
var bridge_exports = {};
__export(bridge_exports, {
  INGEST_LINKS: () => INGEST_LINKS,
  SHARE_GROUP: () => SHARE_GROUP,
  mqttBridge: () => mqttBridge
});
function mqttBridge({ settings, store, services, bus, now, log, registry }) {
  const topics = topicsOf(settings.prefix);
  let links = [];
  const subscribed = /* @__PURE__ */ new Set();
  const metrics = mqttMetrics(registry, () => links.length > 0 && links.every((l) => l.connected()));
  function refuse(topic, payload, reason2, kind) {
    metrics.refused(kind);
    const report = { topic, payload: excerpt(payload), reason: reason2, at: new Date(now()).toISOString() };
    log.warn({ topic, reason: reason2, payload: report.payload }, "MQTT message refused");
    if (links[0]?.publish(topics.errors, JSON.stringify(report), 0, false))
      metrics.published("error");
  }
  const ingest = mqttIngest({ prefix: settings.prefix, services, store, metrics, refuse, log });
  const linkProxy = {
    publish: (...args) => links[0]?.publish(...args) ?? false,
    connected: () => links[0]?.connected() ?? false
  };
  const publisher = mqttPublisher({
    link: linkProxy,
    topics,
    discovery: settings.haDiscovery ? { discoveryPrefix: settings.discoveryPrefix, prefix: settings.prefix, topics } : void 0,
    store,
    services,
    bus,
    metrics,
    log
  });
  return {
    /** The state of the link that is furthest from working; `connected` once every link is subscribed. */
    state() {
      if (links.length === 0)
        return "connecting";
      const states = links.map((l) => l.state() === "connected" && !subscribed.has(l) ? "connecting" : l.state());
      return states.includes("disconnected") ? "disconnected" : states.includes("connecting") ? "connecting" : "connected";
    },
    start() {
      publisher.start();
      links = Array.from({ length: INGEST_LINKS }, (_, index) => {
        const link = brokerLink({
          settings: { ...settings, clientId: index === 0 ? settings.clientId : `${settings.clientId}-${index}` },
          log,
          receive: (topic, payload, packet) => ingest.receive(topic, payload, packet),
          connected: () => {
            subscribed.delete(link);
            link.subscribe([`$share/${SHARE_GROUP}/${topics.measurementsFilter}`, `$share/${SHARE_GROUP}/${topics.activatedFilter}`]).then(() => {
              subscribed.add(link);
              if (index === 0)
                return publisher.snapshot();
            }).catch((error) => log.warn({ err: error }, "MQTT subscribe or snapshot failed"));
          },
          reconnected: () => metrics.reconnected()
        });
        return link;
      });
    },
    async close() {
      publisher.stop();
      ingest.stop();
      await Promise.all(links.map((l) => l.close()));
    }
  };
}
var init_bridge = __esm({
  "dist/mqtt/bridge.js"() {
    "use strict";
    init_ingest();
    init_link();
    init_metrics();
    init_payload();
    init_publisher();
    init_topics();
    init_sharing();
    init_sharing();
  }
});

// dist/server.js
import { existsSync as existsSync3 } from "node:fs";

// dist/app.js
import cors from "@fastify/cors";
import Fastify, { LogController } from "fastify";

// dist/actuators/routes.js
import { Type as Type4 } from "@sinclair/typebox";

// dist/domain/actuator.js
init_schema_common();
import { Type as Type2 } from "@sinclair/typebox";
var ACTUATOR_TYPES = ["acid_pump", "base_pump", "nutrients_A_pump", "nutrients_B_pump"];
var ACTIVATION_CONDITIONS = ["high", "low", "low_or_high", "always"];
var actuatorFields = {
  actuator_type: StringEnum(ACTUATOR_TYPES),
  sensor_id: Id("The sensor whose newest value decides; it must exist."),
  condition_value: Type2.Number(),
  activation_condition: StringEnum(ACTIVATION_CONDITIONS, "high: v > condition_value; low: v < condition_value; low_or_high: v \u2260 condition_value; always."),
  activation_period: Type2.Number({ minimum: 0, description: "Seconds to wait after an activation before the next." }),
  activation_duration: Type2.Number({ minimum: 0, description: "Seconds the pump runs when activated." }),
  actuator_name: Type2.Optional(Type2.Union([Type2.String({ maxLength: 200 }), Type2.Null()])),
  enabled: Type2.Optional(Type2.Boolean({ default: true }))
};
var nullable = (schema, description) => Type2.Union([schema, Type2.Null()], { description });
var Seconds = (description) => Type2.Number({ minimum: 0, description });
var MAX_INTERLOCKS = 8;
var InterlockInput = Type2.Object({
  sensor_id: Id("The sensor whose newest reading may block the pump; it must exist."),
  block_below: Type2.Optional(nullable(Type2.Number({ description: "The pump is blocked while the reading is below this." }))),
  block_above: Type2.Optional(nullable(Type2.Number({ description: "The pump is blocked while the reading is above this." })))
}, {
  title: "InterlockInput",
  description: "At least one bound; block_below \u2264 block_above when both are set. The pump is also blocked while that sensor has no reading, or a stale, invalid or stuck one."
});
var Interlock = Type2.Object({ sensor_id: Id(), block_below: nullable(Type2.Number()), block_above: nullable(Type2.Number()) }, { title: "Interlock" });
var Positive = (description) => Type2.Number({ exclusiveMinimum: 0, description });
var NonNegative = (description) => Type2.Number({ minimum: 0, description });
var volumeFields = {
  flow_ml_per_s: nullable(Positive("Millilitres the pump moves per second of run (> 0): a dose's volume is its duration \xD7 this. Null: unknown.")),
  max_ml_per_day: nullable(Positive("The volume of the doses in any rolling 24 h, this one included, stays at or under it (> 0; needs flow_ml_per_s). Null: no limit.")),
  stock_ml: nullable(NonNegative("Millilitres left in the pump's bottle (\u2265 0; needs flow_ml_per_s): each dose takes its volume, never below 0; at 0 the decision answers empty. POST /actuators/{id}/refill records a refill. Null: not tracked.")),
  stock_low_ml: nullable(NonNegative("At or under this stock_ml a stock_low alert (warning) is raised. Null: no warning."))
};
var safetyFields = {
  max_doses_per_hour: nullable(Type2.Integer({ minimum: 1, maximum: MAX_ID, description: "At most this many doses in any rolling 60 minutes. Null: no limit." })),
  max_seconds_per_day: nullable(Seconds("The run time of the doses in any rolling 24 h, this one included, stays at or under it. Null: no limit.")),
  min_response: Type2.Number({
    minimum: 0,
    description: "How far the reading must move in the corrective direction (strictly more) for a dose to count as answered. Default 0."
  }),
  response_delay: nullable(Seconds("Seconds after a dose before its effect is judged (mixing time). Null: activation_period.")),
  lockout_after: nullable(Type2.Integer({
    minimum: 1,
    maximum: MAX_ID,
    description: "This many unanswered doses in a row lock the actuator out. Default 20; null turns it off."
  })),
  controller_timeout: nullable(Seconds("Seconds without a state read or run report before the controller counts as offline. Null: off.")),
  interlocks: Type2.Array(InterlockInput, {
    maxItems: MAX_INTERLOCKS,
    description: `Up to ${MAX_INTERLOCKS} sensors whose readings block the pump; a patch that names interlocks replaces them all.`
  }),
  ...volumeFields
};
var ActuatorBase = Type2.Object({ ...actuatorFields, ...Type2.Partial(Type2.Object(safetyFields)).properties }, { title: "ActuatorBase" });
var Lockout = Type2.Object({ since: DateTimeOutput("When the actuator was locked out."), reason: Type2.String() }, { title: "Lockout" });
var Actuator = Type2.Object({
  ...actuatorFields,
  ...safetyFields,
  actuator_id: Id(),
  enabled: Type2.Boolean(),
  actuator_name: Type2.Union([Type2.String(), Type2.Null()]),
  last_activated: DateTimeOutput("When the pump last ran (initially the creation time)."),
  interlocks: Type2.Array(Interlock),
  lockout: nullable(Lockout, "Read-only: set while the actuator is locked out (POST /actuators/{id}/unlock clears it)."),
  last_polled: nullable(DateTimeOutput(), "Read-only: when a controller last read the state or reported a run (to within 10 s; null: never).")
}, { title: "Actuator" });
var { actuator_name: _name, enabled: _enabled, ...required } = actuatorFields;
var ActuatorPatch = Type2.Object({
  actuator_id: Id(),
  ...Type2.Partial(Type2.Object({ ...required, ...safetyFields })).properties,
  actuator_name: actuatorFields.actuator_name,
  enabled: Type2.Optional(Type2.Boolean())
}, {
  title: "ActuatorPatch",
  description: "An actuator_id and any subset of the fields; the others keep their value. last_activated is accepted and ignored."
});
var ActuatorActivation = Type2.Object({
  activate: Type2.Boolean(),
  status: Type2.String({ description: 'Which rule decided, for a person: "OK" when the condition was evaluated.' }),
  reason: Type2.String({
    description: "Which rule decided, as a stable code (API.md \xA714), first match wins: disabled, paused, locked_out, no_measurement, restarted, stale, invalid, stuck, interlock, empty, waiting, zero_duration, limit, ok (then `activate` is the condition).",
    examples: ["ok", "limit"]
  }),
  duration: Type2.Number({ description: "activation_duration, seconds." }),
  period: Type2.Number({ description: "activation_period, seconds." })
}, { title: "ActuatorActivation" });
var ActuatorIdParams = Type2.Object({ actuator_id: Id() });
var ActivationRecord = Type2.Object({
  activation_id: Id(),
  actuator_id: Id(),
  activated_at: DateTimeOutput("When the run was reported."),
  duration: Type2.Number({ description: "Seconds: the actuator's activation_duration then." }),
  value_before: nullable(Type2.Number(), "The newest reading of its sensor then; null when it had none."),
  answered: nullable(Type2.Boolean(), "Whether the reading moved as the dose should move it; null: not judged (yet)."),
  volume_ml: nullable(Type2.Number(), "Millilitres: duration \xD7 the actuator's flow_ml_per_s at the time of the dose (a later flow change leaves it as it was); null when the actuator had no flow then.")
}, { title: "Activation" });
var ActivationListQuery = Type2.Object({
  start_time: Type2.Optional(DateTimeInput("Only doses at or after this instant.")),
  end_time: Type2.Optional(DateTimeInput("Only doses before this instant.")),
  limit: Type2.Optional(Type2.Integer({ minimum: 1, maximum: 1e3, default: 100, description: "At most this many, newest first (1 to 1000, default 100)." })),
  before: Type2.Optional(Id("Only doses with a smaller activation_id: the last one of the previous page, for paging."))
});

// dist/actuators/routes.js
init_schema_common();

// dist/domain/prototype.js
init_schema_common();
import { Type as Type3 } from "@sinclair/typebox";
var prototypeFields = {
  prototype_id: Id("Chosen by the client."),
  prototype_name: Type3.String({ minLength: 1, maxLength: 200 })
};
var PrototypeRename = Type3.Object({ prototype_name: prototypeFields.prototype_name }, { title: "PrototypeRename" });
var PrototypeBase = Type3.Object(prototypeFields, { title: "PrototypeBase" });
var Prototype = Type3.Object({
  ...prototypeFields,
  paused_until: Type3.Union([DateTimeOutput("While dosing is paused: when the pause ends by itself."), Type3.Null()], {
    description: "Null when not paused, or when the pause has ended."
  })
}, { title: "Prototype" });
function pausedUntil(stored, now) {
  return stored.paused_until !== null && stored.paused_until > now ? stored.paused_until : null;
}
function prototypeView(stored, now) {
  const until = pausedUntil(stored, now);
  return {
    prototype_id: stored.prototype_id,
    prototype_name: stored.prototype_name,
    paused_until: until === null ? null : new Date(until).toISOString()
  };
}
var PAUSE_MIN_SECONDS = 1;
var PAUSE_MAX_SECONDS = 24 * 60 * 60;
var PauseBody = Type3.Object({
  for: Type3.Union([Type3.Number(), Type3.String({ maxLength: 64 })], {
    description: "How long to pause: seconds (a number), or a duration text (ISO 8601 `PT2H`, `02:00:00`, `1d`, `3600`). 1 s to 24 h.",
    examples: [3600, "PT30M"]
  })
}, { title: "PauseBody" });
var Pause = Type3.Object({ prototype_id: Id(), paused_until: DateTimeOutput("When the pause ends by itself.") }, { title: "Pause" });
var PrototypeIdParams = Type3.Object({ prototype_id: Id() });

// dist/http/route-doc.js
var doc = (tag, summary, operationId, description) => ({
  tags: [tag],
  summary,
  operationId,
  ...description === void 0 ? {} : { description }
});

// dist/actuators/docs.js
var ACTUATORS = "Actuators";
var actuatorDocs = {
  post: doc(ACTUATORS, "Post Actuator", "postActuator", "Registers a pump on an existing sensor. last_activated starts at the creation time. The dosing safety settings (max_doses_per_hour, max_seconds_per_day, min_response, response_delay, lockout_after, controller_timeout, interlocks) and the volumes (flow_ml_per_s, max_ml_per_day, stock_ml, stock_low_ml) are optional: left out, no limits, min_response 0, lockout after 20 unanswered doses, no flow, stock not tracked. 422 when max_doses_per_hour or lockout_after is not an integer \u2265 1, a time in seconds is negative, there are more than 8 interlocks, or an interlock has no bound or block_below > block_above; when flow_ml_per_s or max_ml_per_day is not > 0, stock_ml or stock_low_ml is negative, or max_ml_per_day or stock_ml is set without flow_ml_per_s (only a flow turns run time into millilitres); 404 when the sensor or an interlock sensor does not exist. lockout and last_polled are read-only."),
  patch: doc(ACTUATORS, "Update Actuators", "updateActuators", "Partial bulk update, all or nothing. Each element names an actuator_id and the fields to change; the whole objects the dashboard sends back are accepted (last_activated, lockout and last_polled are ignored). The safety rules of POST /actuators are checked on the merged result; interlocks named in a patch replace all of the actuator\u2019s interlocks. A stock_ml sent here sets the bottle\u2019s count as it is (a correction); POST /actuators/{id}/refill records a refill. A flow changed here applies to the doses recorded from then on: those recorded before keep their volume."),
  state: doc(ACTUATORS, "Get Actuator State", "getActuatorState", 'Whether the pump should run now. The first rule that matches decides (status says which): disabled; no measurement; newest measurement older than STALE_AFTER; less than activation_period seconds since last_activated; duration 0; otherwise "OK" and the condition on the newest value (high: v > condition_value; low: v < condition_value; low_or_high: v \u2260 condition_value; always). The newest measurement is the one with the latest timestamp, not the last one posted. Boundaries: a reading exactly STALE_AFTER old is still fresh; a period exactly elapsed allows activation; a value equal to condition_value does not activate high, low or low_or_high. A last_activated in the future (server clock set back) keeps the pump waiting. Sent with Cache-Control: no-store.'),
  lastActivated: doc(ACTUATORS, "Update Actuator Last Activated", "updateActuatorLastActivated", "Sets last_activated to now and records a dose (see GET /actuators/{actuator_id}/activations) in the same transaction, where the dose\u2019s volume is also taken from stock_ml (never below 0) when the bottle is tracked; the controller calls it right after the pump ran. The route takes no body: whatever is sent (nothing, an empty form, empty or even malformed JSON, any content type) is ignored, because refusing the report would make the next state poll answer activate: true again."),
  byPrototype: doc(ACTUATORS, "Actuator", "actuator", "The prototype's actuators (those whose sensor belongs to it), by actuator_id."),
  remove: doc(ACTUATORS, "Delete Actuator", "deleteActuator", "Deletes the actuator. 204 without a body; 404 when it does not exist. Its controller then gets 404 for its state."),
  activations: doc(ACTUATORS, "Actuator Activations", "actuatorActivations", "The doses recorded for the actuator, newest first: one per reported run (PATCH \u2026/last_activated or the MQTT `\u2026/activated` topic), with duration = its activation_duration then, value_before = the newest reading of its sensor then (null when it had none), answered true / false / null (not judged yet, or never judged), volume_ml = duration \xD7 the flow_ml_per_s then (null without a flow; a later flow change leaves it as it was). Query: start_time, end_time ([start, end)), limit (1 to 1000, default 100), before (an activation_id: only older doses, for paging). 404 when the actuator does not exist; 422 for a bad query. Deleting the actuator deletes its doses."),
  unlock: doc(ACTUATORS, "Unlock Actuator", "unlockActuator", "Ends a lockout: a run of lockout_after unanswered doses locks an actuator out until someone calls this. Clears `lockout` and the count of unanswered doses, and answers the actuator; the lockout and the unlock (with the user in enforced mode) are recorded in its prototype\u2019s journal. 409 when it is not locked out; 404 when it does not exist. Needs the modify permission in enforced mode.")
};

// dist/core/actuator-view.js
function actuatorView(a) {
  const { lockout_since, lockout_reason, unanswered_streak: _streak, interlocks, last_activated, last_polled, ...settings } = a;
  return {
    ...settings,
    last_activated: new Date(last_activated).toISOString(),
    interlocks: interlocks.map(({ sensor_id, block_below, block_above }) => ({ sensor_id, block_below, block_above })),
    lockout: lockout_since === null ? null : { since: new Date(lockout_since).toISOString(), reason: lockout_reason ?? "" },
    last_polled: last_polled === null || last_polled === void 0 ? null : new Date(last_polled).toISOString()
  };
}

// dist/actuators/routes.js
init_dose_view();
init_json_text();
var actuatorRoutes = async (app, { services: { actuators }, config }) => {
  const whoIs = (request) => config.authMode === "enforced" ? request.principal?.username ?? null : null;
  app.post("/actuators", {
    config: { access: "modify" },
    schema: { ...actuatorDocs.post, body: ActuatorBase, response: { 200: Actuator, ...errorResponses(404, 422) } },
    handler: async (request) => actuatorView(await actuators.create(request.body))
  });
  app.patch("/actuators", {
    config: { access: "modify" },
    schema: { ...actuatorDocs.patch, body: Type4.Array(ActuatorPatch), response: { 200: Type4.Array(Actuator), ...errorResponses(404, 422) } },
    handler: async (request) => (await actuators.patch(request.body)).map(actuatorView)
  });
  app.get("/actuators/:actuator_id/state", {
    config: { access: ["read", "control"] },
    schema: { ...actuatorDocs.state, params: ActuatorIdParams, response: { 200: ActuatorActivation, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      reply.header("cache-control", "no-store");
      return sendJsonText(reply, (await actuators.state(request.params.actuator_id)).json);
    }
  });
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, _body, done) => done(null, void 0));
    scope.patch("/actuators/:actuator_id/last_activated", {
      config: { access: ["modify", "control"] },
      schema: { ...actuatorDocs.lastActivated, params: ActuatorIdParams, response: { 200: Actuator, ...errorResponses(404, 422) } },
      handler: async (request) => actuatorView(await actuators.markActivated(request.params.actuator_id))
    });
  });
  app.get("/actuators/:actuator_id/activations", {
    config: { access: "read" },
    schema: {
      ...actuatorDocs.activations,
      params: ActuatorIdParams,
      querystring: ActivationListQuery,
      response: { 200: Type4.Array(ActivationRecord), ...errorResponses(404, 422) }
    },
    handler: async (request) => (await actuators.activations(request.params.actuator_id, request.query)).map(doseView)
  });
  app.post("/actuators/:actuator_id/unlock", {
    config: { access: "modify" },
    schema: { ...actuatorDocs.unlock, params: ActuatorIdParams, response: { 200: Actuator, ...errorResponses(404, 409, 422) } },
    handler: async (request) => actuatorView(await actuators.unlock(request.params.actuator_id, whoIs(request)))
  });
  app.get("/actuators/:prototype_id", {
    config: { access: ["read", "control"] },
    schema: { ...actuatorDocs.byPrototype, params: PrototypeIdParams, response: { 200: Type4.Array(Actuator), ...errorResponses(404, 422) } },
    handler: async (request) => (await actuators.listByPrototype(request.params.prototype_id)).map(actuatorView)
  });
  app.delete("/actuators/:actuator_id", {
    config: { access: "modify" },
    schema: { ...actuatorDocs.remove, params: ActuatorIdParams, response: { 204: Deleted, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      await actuators.remove(request.params.actuator_id);
      return reply.code(204).send();
    }
  });
};
var routes_default = actuatorRoutes;

// dist/actuators/index.js
async function register(app, deps) {
  const { contact, inputs } = deps.services.safety;
  await contact.start();
  app.addHook("onClose", async () => {
    await contact.stop();
    inputs.stop();
  });
  await app.register(routes_default, deps);
}

// dist/core/timers.js
var LONGEST_DELAY_MS = 2 ** 31 - 1;
var systemTimers = {
  set(fire, delayMs) {
    const timer = setTimeout(fire, Math.min(Math.max(0, delayMs), LONGEST_DELAY_MS));
    timer.unref();
    return timer;
  },
  clear(handle) {
    clearTimeout(handle);
  }
};

// dist/alerts/actuator-watch.js
init_postgres_relay();

// dist/alerts/alert-json.js
var iso = (ms) => ms === null ? null : new Date(ms).toISOString();
function alertOf(row, prototypeId) {
  return {
    alert_id: row.alert_id,
    sensor_id: row.sensor_id,
    actuator_id: row.actuator_id,
    prototype_id: prototypeId,
    kind: row.kind,
    severity: row.severity,
    state: row.state,
    raised_at: new Date(row.raised_at).toISOString(),
    cleared_at: iso(row.cleared_at),
    acknowledged_at: iso(row.acknowledged_at),
    acknowledged_by: row.acknowledged_by,
    value: row.value,
    peak: row.peak,
    last_value: row.last_value
  };
}

// dist/alerts/outbox.js
import { randomUUID } from "node:crypto";
function webhookPayload(id, news) {
  return JSON.stringify({ id, event: news.event, alert: news.alert });
}
async function enqueueNotifications(alerts, urls, events, now) {
  if (urls.length === 0 || events.length === 0)
    return;
  const rows = events.flatMap((news) => {
    const id = randomUUID();
    const payload = webhookPayload(id, news);
    return urls.map((url) => ({ alert_id: news.alert.alert_id, url, idempotency_key: id, payload, created_at: now }));
  });
  await alerts.enqueue(rows);
}

// dist/alerts/actuator-alerts.js
function isUniqueViolation(error) {
  const e = error;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/.test(e?.message ?? "");
}
async function prototypeOf(tx, actuator) {
  return (await tx.sensors.get(actuator.sensor_id))?.prototype_id ?? null;
}
async function raiseActuatorAlert(tx, { webhookUrls: webhookUrls2 }, actuator, kind, severity, at, value = null) {
  if (await tx.alerts.activeOfActuator(actuator.actuator_id, kind))
    return void 0;
  const row = await tx.alerts.raise({
    sensor_id: null,
    actuator_id: actuator.actuator_id,
    kind,
    severity,
    raised_at: at,
    value,
    peak: null
  });
  const news = { event: "raised", alert: alertOf(row, await prototypeOf(tx, actuator)) };
  await enqueueNotifications(tx.alerts, webhookUrls2, [news], at);
  return news;
}
async function clearActuatorAlert(tx, { webhookUrls: webhookUrls2 }, actuatorId, kind, at, ended) {
  const active = await tx.alerts.activeOfActuator(actuatorId, kind);
  if (!active)
    return void 0;
  if (ended)
    await tx.alerts.acknowledgeAs(active.alert_id, at, ended.by);
  const row = await tx.alerts.change(active.alert_id, { state: "cleared", cleared_at: at });
  const news = { event: "cleared", alert: alertOf(row, active.prototype_id) };
  await enqueueNotifications(tx.alerts, webhookUrls2, [news], at);
  return news;
}

// dist/alerts/actuator-watch.js
var KINDS = ["limit", "controller_offline"];
var keyOf = (actuatorId, kind) => `${actuatorId} ${kind}`;
var limitHolds = (state) => state.reason === "limit" && state.conditionMet === true;
function actuatorWatch(deps) {
  const { store, bus, now, log } = deps;
  const on = /* @__PURE__ */ new Set();
  let chain = Promise.resolve();
  const unsubscribe = [];
  function change(actuatorId, kind, raise2, at, check) {
    const key = keyOf(actuatorId, kind);
    if (on.has(key) === raise2)
      return;
    if (raise2)
      on.add(key);
    else
      on.delete(key);
    chain = chain.then(async () => {
      let news;
      try {
        news = await store.transaction(async (tx) => {
          if (!raise2)
            return clearActuatorAlert(tx, deps, actuatorId, kind, at);
          const actuator = await tx.actuators.get(actuatorId);
          if (!actuator || check && !await check(tx))
            return void 0;
          return raiseActuatorAlert(tx, deps, actuator, kind, kind === "limit" ? "warning" : "critical", at);
        });
      } catch (error) {
        if (isUniqueViolation(error))
          return;
        log.error({ err: error, actuatorId, kind }, "changing an actuator alert failed");
        on.delete(key);
        return;
      }
      if (news)
        bus.publish("alert", news);
      else if (raise2 && !await store.alerts.activeOfActuator(actuatorId, kind))
        on.delete(key);
    });
  }
  const offlineApplies = async (tx, actuatorId) => {
    const actuator = await tx.actuators.get(actuatorId);
    return actuator !== void 0 && actuator.enabled && actuator.controller_timeout !== null;
  };
  return {
    async start() {
      unsubscribe.push(bus.subscribe("alert", ({ alert }) => {
        if (alert.actuator_id === null || !KINDS.includes(alert.kind))
          return;
        if (alert.state === "active")
          on.add(keyOf(alert.actuator_id, alert.kind));
        else
          on.delete(keyOf(alert.actuator_id, alert.kind));
      }), bus.subscribe("decision", ({ actuator, state }) => change(actuator.actuator_id, "limit", limitHolds(state), now())), bus.subscribe("controller", ({ actuatorId, offline, at }) => change(actuatorId, "controller_offline", offline, at, (tx) => offlineApplies(tx, actuatorId))), bus.subscribe("actuator", (c) => {
        if (c.action === "deleted") {
          for (const kind of KINDS)
            on.delete(keyOf(c.actuatorId, kind));
          return;
        }
        const off = !c.actuator.enabled || c.actuator.controller_timeout === null;
        if (off && !isRelayed(c))
          change(c.actuator.actuator_id, "controller_offline", false, now());
      }));
      for (const alert of await store.alerts.activeOfActuators(KINDS))
        on.add(keyOf(alert.actuator_id, alert.kind));
    },
    /** Resolves once the changes asked for so far are done (tests). */
    async idle() {
      let last;
      while (last !== chain) {
        last = chain;
        await last;
      }
    },
    async stop() {
      for (const stop of unsubscribe.splice(0))
        stop();
      await chain;
    }
  };
}

// dist/alerts/dose-judge.js
init_postgres_relay();

// dist/safety/instants.js
var hasElapsed = (since, at, seconds2) => (at - since) / 1e3 >= seconds2;
function firstMillisecondAfter(after, estimate, holds) {
  if (Number.isNaN(after) || !Number.isFinite(estimate))
    return null;
  let t = Math.max(Math.ceil(estimate), Math.floor(after) + 1);
  for (let step = 0; step < 4 && !holds(t); step++)
    t++;
  if (!holds(t))
    return null;
  while (t - 1 > after && holds(t - 1))
    t--;
  return t;
}
var elapsesAt = (since, seconds2, now) => firstMillisecondAfter(now, since + seconds2 * 1e3, (t) => hasElapsed(since, t, seconds2));
function earliest(instants) {
  let first = null;
  for (const t of instants)
    if (t !== null && (first === null || t < first))
      first = t;
  return first;
}

// dist/safety/judging.js
var DEFAULT_LOCKOUT_AFTER = 20;
function correctiveDirection(condition, valueBefore, conditionValue) {
  switch (condition) {
    case "high":
      return -1;
    case "low":
      return 1;
    case "low_or_high":
      if (valueBefore > conditionValue)
        return -1;
      if (valueBefore < conditionValue)
        return 1;
      return null;
    default:
      return null;
  }
}
function judgeDose(dose, condition, conditionValue, minResponse, readingsAfter, responseDelay, period) {
  const before = dose.value_before;
  if (before === null || before === void 0 || Number.isNaN(before))
    return null;
  const direction = correctiveDirection(condition, before, conditionValue);
  if (direction === null)
    return null;
  const delay = responseDelay ?? period;
  let judging;
  for (const reading of readingsAfter) {
    if (hasElapsed(dose.activated_at, reading.timestamp, delay) && (judging === void 0 || reading.timestamp >= judging.timestamp)) {
      judging = reading;
    }
  }
  if (judging === void 0)
    return null;
  const moved = direction === 1 ? judging.value - before : before - judging.value;
  return moved > (minResponse ?? 0);
}
function nextUnansweredStreak(streak, answered) {
  if (answered === true)
    return 0;
  if (answered === false)
    return streak + 1;
  return streak;
}
function shouldLockOut(streak, lockoutAfter = DEFAULT_LOCKOUT_AFTER) {
  if (lockoutAfter === null)
    return false;
  return !(streak < lockoutAfter);
}

// dist/safety/lockout-reason.js
var QUANTITY = { ph: "pH", ec: "EC" };
var quantityName = (sensorType) => QUANTITY[sensorType] ?? sensorType.replaceAll("_", " ");
function directionWords(condition, conditionValue) {
  if (condition === "high")
    return "down";
  if (condition === "low")
    return "up";
  return `toward ${conditionValue}`;
}
function lockoutReason(streak, sensorType, condition, conditionValue, minResponse) {
  const doses2 = streak === 1 ? "1 dose" : `${streak} doses in a row`;
  return `${doses2} did not move ${quantityName(sensorType)} ${directionWords(condition, conditionValue)} by more than ${minResponse}`;
}

// dist/alerts/dose-judge.js
var RETRY_MS = 5e3;
var neverJudged = (dose, actuator) => dose.value_before === null || correctiveDirection(actuator.activation_condition, dose.value_before, actuator.condition_value) === null;
async function judgeActuator(tx, deps, actuatorId, at) {
  await tx.actuators.lock([actuatorId]);
  const actuator = await tx.actuators.get(actuatorId);
  if (!actuator || actuator.activation_condition === "always")
    return { news: [], waiting: false };
  const doses2 = await tx.activations.unjudged(actuatorId);
  const newest = await tx.measurements.last(actuator.sensor_id);
  let streak = actuator.unanswered_streak;
  let waiting = false;
  for (const dose of doses2) {
    if (neverJudged(dose, actuator))
      continue;
    const answered = newest ? judgeDose(dose, actuator.activation_condition, actuator.condition_value, actuator.min_response, [newest], actuator.response_delay, actuator.activation_period) : null;
    if (answered === null) {
      waiting = true;
      break;
    }
    await tx.activations.judge(dose.activation_id, answered);
    streak = nextUnansweredStreak(streak, answered);
  }
  if (streak !== actuator.unanswered_streak)
    await tx.actuators.setUnansweredStreak(actuatorId, streak);
  if (actuator.lockout_since !== null || !shouldLockOut(streak, actuator.lockout_after))
    return { news: [], waiting };
  const sensor = await tx.sensors.get(actuator.sensor_id);
  const reason2 = lockoutReason(streak, sensor?.sensor_type ?? "ph", actuator.activation_condition, actuator.condition_value, actuator.min_response);
  const locked = await tx.actuators.lockOut(actuatorId, at, reason2);
  if (!locked)
    return { news: [], waiting };
  await tx.safetyEvents.record({ kind: "lockout", at, actuator_id: actuatorId, prototype_id: null, reason: reason2 });
  const raised = await raiseActuatorAlert(tx, deps, locked, "lockout", "critical", at);
  return {
    lockedOut: { ...locked, unanswered_streak: streak, interlocks: await tx.interlocks.of(actuatorId) },
    news: raised ? [raised] : [],
    waiting
  };
}
function doseJudge(deps) {
  const { store, bus, now, timers, log } = deps;
  const pending = /* @__PURE__ */ new Map();
  let reports = 0;
  let chain = Promise.resolve();
  let stopped = false;
  const unsubscribe = [];
  const run = (work) => {
    chain = chain.then(work).catch(() => {
    });
  };
  function judge(actuatorId) {
    run(async () => {
      const entry2 = pending.get(actuatorId);
      if (stopped || !entry2)
        return;
      const seen = entry2.reports;
      let judged;
      try {
        judged = await store.transaction((tx) => judgeActuator(tx, deps, actuatorId, now()));
      } catch (error) {
        log.error({ err: error, actuatorId }, "judging the doses of an actuator failed; trying again shortly");
        timers.set(() => judge(actuatorId), RETRY_MS);
        return;
      }
      if (!judged.waiting && pending.get(actuatorId)?.reports === seen)
        pending.delete(actuatorId);
      if (judged.lockedOut)
        bus.publish("actuator", { action: "updated", actuator: judged.lockedOut });
      for (const news of judged.news)
        bus.publish("alert", news);
    });
  }
  function unlocked(actuatorId, by) {
    run(async () => {
      try {
        const news = await store.transaction((tx) => clearActuatorAlert(tx, deps, actuatorId, "lockout", now(), { by }));
        if (news)
          bus.publish("alert", news);
      } catch (error) {
        log.error({ err: error, actuatorId }, "clearing the lockout alert of an unlocked actuator failed");
      }
    });
  }
  return {
    async start() {
      unsubscribe.push(bus.subscribe("actuator", (change) => {
        if (change.action === "deleted")
          return void pending.delete(change.actuatorId);
        const { actuator } = change;
        const entry2 = pending.get(actuator.actuator_id);
        if (change.action === "activated" && actuator.activation_condition !== "always") {
          pending.set(actuator.actuator_id, { sensorId: actuator.sensor_id, reports: ++reports });
        } else if (entry2)
          entry2.sensorId = actuator.sensor_id;
        if (change.unlockedBy !== void 0 && !isRelayed(change))
          unlocked(actuator.actuator_id, change.unlockedBy);
      }), bus.subscribe("measurements", (change) => {
        if (isRelayed(change) || pending.size === 0)
          return;
        const sensors = /* @__PURE__ */ new Set();
        for (const row of change.rows)
          sensors.add(row.sensor_id);
        for (const [actuatorId, entry2] of pending)
          if (sensors.has(entry2.sensorId))
            judge(actuatorId);
      }));
      for (const { actuator_id, sensor_id } of await store.activations.pendingActuators()) {
        if (!pending.has(actuator_id))
          pending.set(actuator_id, { sensorId: sensor_id, reports: ++reports });
      }
    },
    /** Resolves once the work asked for so far is done (tests). */
    async idle() {
      let last;
      while (last !== chain) {
        last = chain;
        await last;
      }
    },
    async stop() {
      stopped = true;
      for (const stop of unsubscribe.splice(0))
        stop();
      await chain;
    }
  };
}

// dist/alerts/routes.js
import { Type as Type10 } from "@sinclair/typebox";

// dist/domain/alert.js
import { Type as Type9 } from "@sinclair/typebox";
init_schema_common();
init_measurement();

// dist/domain/sensor.js
import { Type as Type8 } from "@sinclair/typebox";

// dist/domain/calibration.js
init_schema_common();
import { Type as Type7 } from "@sinclair/typebox";
var MAX_CALIBRATION_POINTS = 5;
var MAX_CALIBRATION_INTERVAL_DAYS = 3650;
var CALIBRATION_NOTE_MAX = 2e3;
var DAY_MS2 = 864e5;
var CalibrationPoint = Type7.Object({
  reference: Type7.Number({ description: "The value of the reference (a buffer solution, a calibrated meter)." }),
  reading: Type7.Number({ description: "What the probe read in it." })
}, { title: "CalibrationPoint" });
var CalibrationBody = Type7.Object({
  points: Type7.Array(CalibrationPoint, {
    minItems: 1,
    maxItems: MAX_CALIBRATION_POINTS,
    description: `1 to ${MAX_CALIBRATION_POINTS} points; with two or more, the references must not all be equal.`
  }),
  note: Type7.Optional(Type7.Union([Type7.String({ minLength: 1, maxLength: CALIBRATION_NOTE_MAX }), Type7.Null()])),
  calibrated_at: Type7.Optional(DateTimeInput("When it was calibrated; default now. At most 5 minutes in the future."))
}, { title: "CalibrationBody" });
var Calibration = Type7.Object({
  calibration_id: Id("Assigned by the service."),
  sensor_id: Id(),
  calibrated_at: DateTimeOutput(),
  points: Type7.Array(CalibrationPoint),
  slope: Type7.Number({
    description: "Least squares of reading against reference: reading \u2248 slope \xD7 reference + offset. 1 for one point."
  }),
  offset: Type7.Number({ description: "For one point: reading \u2212 reference." }),
  accepted: Type7.Boolean({
    description: "Two points or more: slope within 0.9 to 1.1. One point: always (an offset calibration; the slope cannot be judged)."
  }),
  note: Type7.Union([Type7.String(), Type7.Null()]),
  author: Type7.Union([Type7.String(), Type7.Null()], { description: "The user who recorded it; null in open mode." })
}, { title: "Calibration" });
var calibrationView = (stored) => ({
  ...stored,
  calibrated_at: new Date(stored.calibrated_at).toISOString()
});
function calibrationDue(intervalDays, calibratedAt, before, now) {
  if (intervalDays === null)
    return null;
  if (calibratedAt !== null)
    return calibratedAt + intervalDays * DAY_MS2;
  return before.intervalDays !== null && before.due !== null ? before.due : now;
}

// dist/domain/sensor.js
init_schema_common();
var SENSOR_TYPES = ["temperature", "humidity", "ec", "ph", "water_level", "boolean_water_level", "oxygen"];
var SensorType = StringEnum(SENSOR_TYPES);
var sensorFields = {
  sensor_type: SensorType,
  prototype_id: Id("The prototype the sensor belongs to; it must exist."),
  sensor_unit: Type8.String({ minLength: 1, maxLength: 32, examples: ["pH", "mS/cm", "Celsius"] }),
  threshold_critically_low: Type8.Number(),
  threshold_low: Type8.Number(),
  threshold_high: Type8.Number(),
  threshold_critically_high: Type8.Number()
};
var nullable2 = (schema) => Type8.Union([schema, Type8.Null()]);
var trustFields = {
  valid_min: nullable2(Type8.Number({ description: "Readings below it are invalid (stored, but never make a pump run). Null: the type's default." })),
  valid_max: nullable2(Type8.Number({ description: "Readings above it are invalid (stored, but never make a pump run). Null: the type's default." })),
  stale_after: nullable2(Type8.Number({ minimum: 0, description: "Seconds after which the newest reading is too old to act on. Null: STALE_AFTER." })),
  stuck_after: nullable2(Type8.Number({
    minimum: 0,
    description: "Seconds the same exact value (at least 3 readings) may repeat before the sensor counts as stuck. Null: off."
  }))
};
var nameFields = {
  sensor_name: nullable2(Type8.String({ minLength: 1, maxLength: 100, description: 'A name to show instead of "pH #4"; null: none.' }))
};
var calibrationFields = {
  calibration_interval: nullable2(Type8.Number({
    exclusiveMinimum: 0,
    maximum: MAX_CALIBRATION_INTERVAL_DAYS,
    description: `Days between calibrations (more than 0, at most ${MAX_CALIBRATION_INTERVAL_DAYS}); past due raises a calibration_due alert. Null: no reminder.`
  }))
};
var calibrationState = {
  calibrated_at: Type8.Union([DateTimeOutput("When the newest accepted calibration was made."), Type8.Null()], {
    description: "Null until a calibration is accepted."
  }),
  calibration_due: Type8.Union([DateTimeOutput(), Type8.Null()], {
    description: "When the next calibration falls due: calibrated_at + calibration_interval; never calibrated, the moment the interval was set (due at once). Null without an interval."
  })
};
var SensorBase = Type8.Object({ ...sensorFields, ...Type8.Partial(Type8.Object({ ...nameFields, ...trustFields, ...calibrationFields })).properties }, {
  title: "SensorBase",
  description: "Thresholds must satisfy critically_low \u2264 low \u2264 high \u2264 critically_high; valid_min \u2264 valid_max when both are set."
});
var Sensor = Type8.Object({ ...sensorFields, ...nameFields, ...trustFields, ...calibrationFields, ...calibrationState, sensor_id: Id("Assigned by the service.") }, { title: "Sensor" });
var SensorPatch = Type8.Object({ sensor_id: Id(), ...Type8.Partial(Type8.Object({ ...sensorFields, ...nameFields, ...trustFields, ...calibrationFields })).properties }, {
  title: "SensorPatch",
  description: "A sensor_id and any subset of the SensorBase fields; the others keep their value. The rules are checked on the merged result."
});

// dist/domain/alert.js
var LEVELS = ["critically_low", "low", "ok", "high", "critically_high", "stale", "invalid", "stuck"];
var Level = StringEnum(LEVELS);
var ALERT_KINDS = [
  "low",
  "high",
  "stale",
  "invalid",
  "stuck",
  "lockout",
  "limit",
  "controller_offline",
  "backup",
  "stock_low",
  "calibration_due"
];
var LEVEL_ALERT_KINDS = ["low", "high", "stale", "invalid", "stuck"];
var isLevelAlertKind = (kind) => LEVEL_ALERT_KINDS.includes(kind);
var ALERT_SEVERITIES = ["warning", "critical"];
var ALERT_STATES = ["active", "cleared"];
var Alert = Type9.Object({
  alert_id: Id(),
  sensor_id: Type9.Union([Id(), Type9.Null()], {
    description: "The sensor it is about; null for an actuator\u2019s or the service\u2019s own alert."
  }),
  actuator_id: Type9.Union([Id(), Type9.Null()], { description: "The actuator it is about, or null." }),
  prototype_id: Type9.Union([Id(), Type9.Null()], {
    description: "The prototype of its sensor (of its actuator\u2019s sensor for an actuator\u2019s alert); null for the service\u2019s own."
  }),
  kind: StringEnum(ALERT_KINDS),
  severity: StringEnum(ALERT_SEVERITIES, "critical for the critical levels, invalid, lockout and controller_offline; stale, stuck, limit, stock_low and calibration_due alerts are warnings."),
  state: StringEnum(ALERT_STATES),
  raised_at: DateTimeOutput(),
  cleared_at: Type9.Union([DateTimeOutput(), Type9.Null()]),
  acknowledged_at: Type9.Union([DateTimeOutput(), Type9.Null()]),
  acknowledged_by: Type9.Union([Type9.String(), Type9.Null()], { description: "The username; null in open mode." }),
  value: Type9.Union([Type9.Number(), Type9.Null()], {
    description: "The measurement that raised it (null for a stale alert); for stock_low, the millilitres left when it was raised."
  }),
  peak: Type9.Union([Type9.Number(), Type9.Null()], { description: "The furthest value while active." }),
  last_value: Type9.Union([Type9.Number(), Type9.Null()], { description: "The newest value while active." })
}, { title: "Alert" });
var AlertIdParams = Type9.Object({ alert_id: Id() });
var MAX_ALERTS_PAGE = 1e3;
var AlertListQuery = Type9.Object({
  state: Type9.Optional(StringEnum([...ALERT_STATES, "all"], "Which alerts: active (default), cleared, or all.")),
  prototype_id: Type9.Optional(Id("Only the alerts of this prototype\u2019s sensors and actuators.")),
  sensor_id: Type9.Optional(Id("Only this sensor\u2019s alerts.")),
  limit: Type9.Optional(Type9.Integer({
    minimum: 1,
    maximum: MAX_ALERTS_PAGE,
    default: 100,
    description: `At most this many (1 to ${MAX_ALERTS_PAGE}, default 100).`
  })),
  before: Type9.Optional(Id("Paging: only alerts with a lower alert_id (pass the last alert_id of the previous page)."))
});
var PrototypeStatus = Type9.Object({
  prototype: Prototype,
  sensors: Type9.Array(Type9.Object({
    sensor: Sensor,
    level: Type9.Union([Level, Type9.Null()], {
      description: "The level of the newest measurement at the time of the request; null while the sensor has none."
    }),
    last_measurement: Type9.Union([Measurement, Type9.Null()]),
    alerts: Type9.Array(Alert, { description: "The active alerts, oldest first." })
  }), { description: "By sensor_id." }),
  actuators: Type9.Array(Type9.Object({ actuator: Actuator, state: ActuatorActivation }), {
    description: "By actuator_id, each with its decision (GET /actuators/{actuator_id}/state) at the time of the request."
  })
}, { title: "PrototypeStatus" });

// dist/alerts/routes.js
init_schema_common();

// dist/alerts/docs.js
var ALERTS = "Alerts";
var PROTOTYPES = "Prototypes";
var alertDocs = {
  list: doc(ALERTS, "Alerts", "alerts", "Alerts newest first (by alert_id). state: active (default), cleared or all; filters prototype_id and sensor_id (an unknown id selects nothing); limit 1 to 1000 (default 100); before: only alerts with a lower alert_id, for the next page. A sensor leaving ok raises one alert of its kind (low or high; critical for the critical levels), and it clears once the sensor has stayed ok for ALERT_CLEAR_AFTER. Its severity changes on the same alert (the escalated event, either way) with the same hysteresis: to critical at once when a critical level is reached; back to warning only once the sensor has stayed short of the critical threshold (at warning or ok) for ALERT_CLEAR_AFTER, any critical value in between starting the wait over, so a value wavering across a critical threshold gives at most one escalation and no de-escalation; when the clear falls due as well (straight from critical to ok), the alert just clears. A sensor crossing straight to the other side clears the alert of the side it left at once. A stale alert is raised at the instant the newest measurement becomes older than STALE_AFTER and clears with the next measurement. value is the value that raised the alert (null for stale), last_value the newest value while it was active, peak the furthest value beyond its threshold (the newest value of each committed batch counts). Deleting a sensor deletes its alerts."),
  get: doc(ALERTS, "Alert", "alert", "One alert, active or cleared. 404 when there is no such alert."),
  acknowledge: doc(ALERTS, "Acknowledge Alert", "acknowledgeAlert", "Records that someone has seen the alert: acknowledged_at, and acknowledged_by the username of the token (null in AUTH_MODE=open). The first acknowledgement is kept: acknowledging again answers the alert unchanged. A cleared alert can be acknowledged too. Sends the acknowledged event (event stream, webhooks). It takes no body: send none, or any JSON (ignored). Needs the modify permission in AUTH_MODE=enforced. 404 when there is no such alert."),
  status: doc(PROTOTYPES, "Prototype Status", "prototypeStatus", "Everything an overview page needs in one request: the prototype; per sensor (by sensor_id) its level now (critically_low, low, ok, high, critically_high by its thresholds, a value equal to a threshold not beyond it; stale when the newest measurement is older than STALE_AFTER; null while it has none), its newest measurement (or null) and its active alerts; per actuator (by actuator_id) its decision as GET /actuators/{actuator_id}/state answers it. 404 when the prototype does not exist.")
};

// dist/alerts/routes.js
var alertRoutes = async (app, { alerts, authMode }) => {
  app.get("/alerts", {
    config: { access: "read" },
    schema: { ...alertDocs.list, querystring: AlertListQuery, response: { 200: Type10.Array(Alert), ...errorResponses(422) } },
    handler: (request) => {
      const { state = "active", prototype_id, sensor_id, limit = 100, before } = request.query;
      return alerts.list({ state, prototypeId: prototype_id, sensorId: sensor_id, limit, before });
    }
  });
  app.get("/alerts/:alert_id", {
    config: { access: "read" },
    schema: { ...alertDocs.get, params: AlertIdParams, response: { 200: Alert, ...errorResponses(404, 422) } },
    handler: (request) => alerts.get(request.params.alert_id)
  });
  app.post("/alerts/:alert_id/acknowledge", {
    config: { access: "modify" },
    schema: { ...alertDocs.acknowledge, params: AlertIdParams, response: { 200: Alert, ...errorResponses(404, 422) } },
    handler: (request) => alerts.acknowledge(request.params.alert_id, authMode === "enforced" ? request.principal?.username ?? null : null)
  });
  app.get("/prototypes/:prototype_id/status", {
    config: { access: "read" },
    schema: { ...alertDocs.status, params: PrototypeIdParams, response: { 200: PrototypeStatus, ...errorResponses(404, 422) } },
    handler: (request) => alerts.status(request.params.prototype_id)
  });
};
var routes_default2 = alertRoutes;

// dist/alerts/service.js
init_errors();

// dist/safety/stuck.js
var STUCK_MIN_READINGS = 3;
function isStuckRun(run, stuckAfter, at) {
  if (stuckAfter === null)
    return false;
  if (!run)
    return true;
  return !(run.count < STUCK_MIN_READINGS) && !((at - run.since) / 1e3 < stuckAfter);
}
function stuckAt(run, stuckAfter, now) {
  if (stuckAfter === null || !run || isStuckRun(run, stuckAfter, now) || !(run.count >= STUCK_MIN_READINGS))
    return null;
  return firstMillisecondAfter(now, run.since + stuckAfter * 1e3, (t) => hasElapsed(run.since, t, stuckAfter));
}

// dist/alerts/levels.js
function valueLevel(value, t) {
  if (value < t.threshold_critically_low)
    return "critically_low";
  if (value < t.threshold_low)
    return "low";
  if (value > t.threshold_critically_high)
    return "critically_high";
  if (value > t.threshold_high)
    return "high";
  return "ok";
}
function isOutside(value, range) {
  if (!range)
    return false;
  if (!Number.isFinite(value))
    return true;
  return range.min !== null && !(value >= range.min) || range.max !== null && !(value <= range.max);
}
function readingLevel(value, t, range) {
  return isOutside(value, range) ? "invalid" : valueLevel(value, t);
}
function isStale(timestamp, now, staleAfterMs) {
  return !(now - timestamp <= staleAfterMs);
}
function staleAt(timestamp, staleAfterMs) {
  return Math.floor(timestamp + staleAfterMs) + 1;
}
function sensorLevel(newest, thresholds, now, staleAfterMs, trust = {}) {
  if (!newest)
    return null;
  if (isStale(newest.timestamp, now, staleAfterMs))
    return "stale";
  const level = readingLevel(newest.value, thresholds, trust.range);
  return level !== "invalid" && trust.stuck ? "stuck" : level;
}
function kindOf(level) {
  switch (level) {
    case "critically_low":
    case "low":
      return "low";
    case "high":
    case "critically_high":
      return "high";
    case "stale":
      return "stale";
    case "invalid":
      return "invalid";
    case "stuck":
      return "stuck";
    default:
      return void 0;
  }
}
function severityOf(level) {
  return level === "critically_low" || level === "critically_high" || level === "invalid" ? "critical" : "warning";
}

// dist/safety/validity.js
var UNBOUNDED = { min: null, max: null };
var DEFAULT_VALID_RANGES = {
  ph: { min: 0, max: 14 },
  humidity: { min: 0, max: 100 },
  boolean_water_level: { min: 0, max: 1 },
  ec: { min: 0, max: null },
  water_level: { min: 0, max: null },
  oxygen: { min: 0, max: null },
  temperature: UNBOUNDED
};
function validRange(sensorType, validMin, validMax) {
  const defaults = Object.hasOwn(DEFAULT_VALID_RANGES, sensorType) ? DEFAULT_VALID_RANGES[sensorType] : UNBOUNDED;
  return { min: validMin ?? defaults.min, max: validMax ?? defaults.max };
}
function isValid(value, range) {
  if (!Number.isFinite(value))
    return false;
  if (range.min !== null && !(value >= range.min))
    return false;
  if (range.max !== null && !(value <= range.max))
    return false;
  return true;
}
function describeRange(range) {
  if (range.min !== null && range.max !== null)
    return `${range.min}..${range.max}`;
  if (range.min !== null)
    return `\u2265 ${range.min}`;
  if (range.max !== null)
    return `\u2264 ${range.max}`;
  return "any value";
}

// dist/alerts/watched.js
var newWatched = (prototypeId, thresholds) => ({
  prototypeId,
  thresholds,
  newest: void 0,
  run: null,
  state: { level: null, okSince: null, calmSince: null },
  active: [],
  seen: []
});
var isNewer = (row, than) => !than || row.timestamp > than.timestamp || row.timestamp === than.timestamp && row.measurement_id > than.measurement_id;
var thresholdsOf = (s) => ({
  threshold_critically_low: s.threshold_critically_low,
  threshold_low: s.threshold_low,
  threshold_high: s.threshold_high,
  threshold_critically_high: s.threshold_critically_high,
  range: validRange(s.sensor_type, s.valid_min ?? null, s.valid_max ?? null),
  stuckAfter: s.stuck_after ?? null
});
var sameThresholds = (a, b) => a.threshold_critically_low === b.threshold_critically_low && a.threshold_low === b.threshold_low && a.threshold_high === b.threshold_high && a.threshold_critically_high === b.threshold_critically_high && a.range.min === b.range.min && a.range.max === b.range.max && a.stuckAfter === b.stuckAfter;
function runAfter(run, before, row) {
  if (!before || before.value !== row.value || !run)
    return { count: 1, since: row.timestamp };
  return { count: Math.min(3, run.count + 1), since: Math.min(run.since, row.timestamp) };
}
function forNewestOfEach(rows, visit) {
  const first = rows[0];
  if (!first)
    return;
  let newest = first;
  let oneSensor = true;
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i];
    if (row.sensor_id !== first.sensor_id) {
      oneSensor = false;
      break;
    }
    if (isNewer(row, newest))
      newest = row;
  }
  if (oneSensor)
    return visit(newest);
  const few = [];
  let byId;
  for (const row of rows) {
    if (byId) {
      const known = byId.get(row.sensor_id);
      if (!known || isNewer(row, known))
        byId.set(row.sensor_id, row);
      continue;
    }
    let k = 0;
    while (k < few.length && few[k].sensor_id !== row.sensor_id)
      k++;
    if (k === few.length)
      few.push(row);
    else if (isNewer(row, few[k]))
      few[k] = row;
    if (few.length > 16)
      byId = new Map(few.map((r) => [r.sensor_id, r]));
  }
  for (const row of byId ? byId.values() : few)
    visit(row);
}

// dist/alerts/service.js
var toApi = (row) => alertOf(row, row.prototype_id);
function alertService({ store, bus, now, staleAfterMs, webhookUrls: webhookUrls2, decisionOf }) {
  return {
    async list(query) {
      const rows = await store.alerts.list({
        state: query.state === "all" ? void 0 : query.state,
        sensorId: query.sensorId,
        prototypeId: query.prototypeId,
        before: query.before,
        limit: query.limit
      });
      return rows.map(toApi);
    },
    async get(alertId) {
      const row = await store.alerts.get(alertId);
      if (!row)
        throw new NotFound(`Alert ${alertId} not found`);
      return toApi(row);
    },
    /**
     * Records who acknowledged the alert (null in open mode) and when. The first acknowledgement
     * is kept: acknowledging again answers the alert as it is and tells nobody. A cleared alert
     * can be acknowledged too (someone saw it after the fact).
     */
    async acknowledge(alertId, username) {
      const at = now();
      const result = await store.transaction(async (tx) => {
        const acknowledged = await tx.alerts.acknowledge(alertId, at, username);
        const row = await tx.alerts.get(alertId);
        if (!row)
          return void 0;
        const news = acknowledged ? { event: "acknowledged", alert: toApi(row) } : void 0;
        if (news)
          await enqueueNotifications(tx.alerts, webhookUrls2, [news], at);
        return { alert: toApi(row), news };
      });
      if (!result)
        throw new NotFound(`Alert ${alertId} not found`);
      if (result.news)
        bus.publish("alert", result.news);
      return result.alert;
    },
    /** Everything an overview page shows of one prototype, read at one moment. */
    async status(prototypeId) {
      const prototype = await store.prototypes.get(prototypeId);
      if (!prototype)
        throw new NotFound(`Prototype ${prototypeId} not found`);
      const [sensors, actuators] = await Promise.all([
        store.sensors.listByPrototype(prototypeId),
        store.actuators.listByPrototype(prototypeId)
      ]);
      const [newest, runs, active, interlocks, states] = await Promise.all([
        Promise.all(sensors.map((s) => store.measurements.last(s.sensor_id))),
        Promise.all(sensors.map((s) => s.stuck_after === null ? null : store.measurements.equalRun(s.sensor_id))),
        store.alerts.active(sensors.map((s) => s.sensor_id)),
        store.interlocks.ofActuators(actuators.map((a) => a.actuator_id)),
        Promise.all(actuators.map((a) => decisionOf(a.actuator_id)))
      ]);
      const at = now();
      return {
        prototype: prototypeView(prototype, at),
        sensors: sensors.map((sensor, i) => {
          const last = newest[i];
          return {
            sensor,
            level: sensorLevel(last, sensor, at, staleAfterMs, {
              range: thresholdsOf(sensor).range,
              stuck: isStuckRun(runs[i], sensor.stuck_after, at)
            }),
            last_measurement: last ? { ...last, timestamp: new Date(last.timestamp).toISOString() } : null,
            alerts: active.filter((a) => a.sensor_id === sensor.sensor_id).map(toApi)
          };
        }),
        actuators: actuators.flatMap((actuator, i) => {
          const state = states[i];
          return state ? [{ actuator: actuatorView({ ...actuator, interlocks: interlocks.get(actuator.actuator_id) ?? [] }), state }] : [];
        })
      };
    }
  };
}

// dist/alerts/stock-watch.js
init_postgres_relay();

// dist/domain/activation.js
var STATUS = {
  disabled: "Actuator disabled",
  noMeasurement: "No measurement for the sensor",
  stale: "Last measurement too old: sensor possibly disconnected",
  waiting: "Activation period not elapsed",
  zeroDuration: "Activation duration is 0",
  ok: "OK"
};
function conditionHolds(condition, value, conditionValue) {
  switch (condition) {
    case "high":
      return value > conditionValue;
    case "low":
      return value < conditionValue;
    case "low_or_high":
      return value < conditionValue || value > conditionValue;
    case "always":
      return true;
    default:
      return false;
  }
}

// dist/safety/reasons.js
init_instants();
var instant = (ms) => isWithinYears(ms) ? new Date(ms).toISOString() : String(ms);
var SAFETY_STATUS = {
  disabled: STATUS.disabled,
  paused: (until) => `Prototype paused until ${instant(until)}`,
  lockedOut: (lockout) => `Locked out since ${instant(lockout.since)}: ${lockout.reason}`,
  noMeasurement: STATUS.noMeasurement,
  restarted: "Waiting for a measurement received since the service started",
  stale: STATUS.stale,
  invalid: (value, range) => `Measurement ${value} outside the valid range ${describeRange(range)}`,
  stuck: (value, since) => `Sensor possibly stuck: ${value} unchanged since ${instant(since)}`,
  empty: "Stock empty: refill the bottle",
  waiting: STATUS.waiting,
  zeroDuration: STATUS.zeroDuration,
  limit: (kind, max) => kind === "doses" ? `Dose limit: at most ${max} doses per hour` : kind === "seconds" ? `Dose limit: at most ${max} s of run time per 24 h` : `Dose limit: at most ${max} ml per 24 h`,
  limitUnknown: "Dose limit: the recent doses are unknown",
  ok: STATUS.ok
};

// dist/safety/freshness.js
function isStale2(settings, timestamp, at, staleAfterDefaultMs) {
  const ageMs = at - timestamp;
  return settings.stale_after === null ? !(ageMs <= staleAfterDefaultMs) : !(ageMs / 1e3 <= settings.stale_after);
}
function staleAt2(settings, timestamp, now, staleAfterDefaultMs) {
  const stale = (t) => isStale2(settings, timestamp, t, staleAfterDefaultMs);
  if (stale(now))
    return null;
  const limitMs = settings.stale_after === null ? staleAfterDefaultMs : settings.stale_after * 1e3;
  return firstMillisecondAfter(now, timestamp + limitMs, stale);
}
var receivedBeforeStart = (reading, processStartedAt) => !(reading.received_at >= processStartedAt);

// dist/safety/sensor-health.js
var sensorRange = (sensor) => validRange(sensor.settings.sensor_type, sensor.settings.valid_min, sensor.settings.valid_max);
function sensorProblem(sensor, at, staleAfterDefaultMs) {
  const newest = sensor?.newest;
  if (!sensor || !newest)
    return "no_measurement";
  if (isStale2(sensor.settings, newest.timestamp, at, staleAfterDefaultMs))
    return "stale";
  if (!isValid(newest.value, sensorRange(sensor)))
    return "invalid";
  if (isStuckRun(sensor.run, sensor.settings.stuck_after, at))
    return "stuck";
  return null;
}
function sensorProblemChangesAt(sensor, now, staleAfterDefaultMs) {
  const problem = sensorProblem(sensor, now, staleAfterDefaultMs);
  if (!sensor?.newest || problem === "no_measurement" || problem === "stale")
    return null;
  const stale = staleAt2(sensor.settings, sensor.newest.timestamp, now, staleAfterDefaultMs);
  const stuck = problem === null ? stuckAt(sensor.run, sensor.settings.stuck_after, now) : null;
  return earliest([stale, stuck]);
}

// dist/safety/interlocks.js
var sensorName = (interlock, sensor) => `${sensor ? sensor.settings.sensor_type.replaceAll("_", " ") : "sensor"} #${interlock.sensor_id}`;
var sensorOf = (interlock, sensors) => sensors.find((s) => s.settings.sensor_id === interlock.sensor_id);
function interlockBlock(interlock, sensor, at, staleAfterDefaultMs) {
  const name = `Interlock: ${sensorName(interlock, sensor)}`;
  const problem = sensorProblem(sensor, at, staleAfterDefaultMs);
  const newest = sensor?.newest;
  if (problem === "no_measurement" || !sensor || !newest)
    return `${name} has no measurement`;
  if (problem === "stale")
    return `${name} last measurement too old`;
  if (problem === "invalid")
    return `${name} is ${newest.value}, outside its valid range ${describeRange(sensorRange(sensor))}`;
  if (problem === "stuck")
    return `${name} is possibly stuck at ${newest.value}`;
  if (interlock.block_below !== null && !(newest.value >= interlock.block_below))
    return `${name} is ${newest.value} (below ${interlock.block_below})`;
  if (interlock.block_above !== null && !(newest.value <= interlock.block_above))
    return `${name} is ${newest.value} (above ${interlock.block_above})`;
  return null;
}
function firstInterlockBlock(interlocks, sensors, at, staleAfterDefaultMs) {
  for (const interlock of interlocks) {
    const status = interlockBlock(interlock, sensorOf(interlock, sensors), at, staleAfterDefaultMs);
    if (status !== null)
      return status;
  }
  return null;
}
function interlocksChangeAt(interlocks, sensors, now, staleAfterDefaultMs) {
  const instants = [];
  for (const interlock of interlocks) {
    const sensor = sensorOf(interlock, sensors);
    instants.push(sensorProblemChangesAt(sensor, now, staleAfterDefaultMs));
    if (interlockBlock(interlock, sensor, now, staleAfterDefaultMs) !== null)
      break;
  }
  return earliest(instants);
}

// dist/safety/limits.js
var HOUR_SECONDS = 3600;
var DAY_SECONDS = 86400;
var LIMIT_KINDS = ["doses", "seconds", "ml"];
var isInWindow = (activatedAt, at, windowSeconds) => !hasElapsed(activatedAt, at, windowSeconds);
var within = (doses2, at, windowSeconds) => doses2.filter((d) => isInWindow(d.activated_at, at, windowSeconds));
var dosesInLastHour = (doses2, at) => within(doses2, at, HOUR_SECONDS).length;
var secondsInLastDay = (doses2, at) => within(doses2, at, DAY_SECONDS).reduce((sum, d) => sum + d.duration, 0);
var mlInLastDay = (doses2, at, flowMlPerS) => within(doses2, at, DAY_SECONDS).reduce((sum, d) => sum + (d.volume_ml ?? (flowMlPerS === null ? 0 : d.duration * flowMlPerS)), 0);
function limitBinds(kind, settings, doses2, at) {
  switch (kind) {
    case "doses":
      return settings.max_doses_per_hour !== null && !(dosesInLastHour(doses2, at) + 1 <= settings.max_doses_per_hour);
    case "seconds":
      return settings.max_seconds_per_day !== null && !(secondsInLastDay(doses2, at) + settings.activation_duration <= settings.max_seconds_per_day);
    case "ml": {
      const flow = settings.flow_ml_per_s;
      if (settings.max_ml_per_day === null || flow === null)
        return false;
      return !(mlInLastDay(doses2, at, flow) + settings.activation_duration * flow <= settings.max_ml_per_day);
    }
  }
}
var bindingLimits = (settings, doses2, at) => LIMIT_KINDS.filter((kind) => limitBinds(kind, settings, doses2, at));
var leavesWindowAt = (dose, windowSeconds, now) => elapsesAt(dose.activated_at, windowSeconds, now);
function limitFreesAt(kind, settings, doses2, now) {
  if (!limitBinds(kind, settings, doses2, now))
    return null;
  const windowSeconds = kind === "doses" ? HOUR_SECONDS : DAY_SECONDS;
  const instants = within(doses2, now, windowSeconds).map((d) => leavesWindowAt(d, windowSeconds, now)).filter((t) => t !== null).sort((a, b) => a - b);
  for (const t of instants)
    if (!limitBinds(kind, settings, doses2, t))
      return t;
  return null;
}
var anyLimitFreesAt = (settings, doses2, now) => earliest(LIMIT_KINDS.map((kind) => limitFreesAt(kind, settings, doses2, now)));

// dist/safety/rules.js
var isPaused = (pausedUntil2, at) => pausedUntil2 !== null && !(at >= pausedUntil2);
var periodElapsed = ({ actuator }, at) => hasElapsed(actuator.last_activated, at, actuator.activation_period);
var RULES = [
  {
    reason: "disabled",
    check: ({ actuator }) => actuator.enabled !== true ? SAFETY_STATUS.disabled : null
  },
  {
    reason: "paused",
    check: ({ pausedUntil: pausedUntil2 }, at) => isPaused(pausedUntil2, at) ? SAFETY_STATUS.paused(pausedUntil2) : null,
    changesAt: ({ pausedUntil: pausedUntil2 }, now) => pausedUntil2 !== null && isPaused(pausedUntil2, now) ? firstMillisecondAfter(now, pausedUntil2, (t) => !isPaused(pausedUntil2, t)) : null
  },
  {
    reason: "locked_out",
    check: ({ actuator }) => actuator.lockout !== null ? SAFETY_STATUS.lockedOut(actuator.lockout ?? { since: NaN, reason: "unknown" }) : null
  },
  {
    reason: "no_measurement",
    check: ({ sensor }) => !sensor?.newest ? SAFETY_STATUS.noMeasurement : null
  },
  {
    reason: "restarted",
    check: ({ sensor, processStartedAt }) => receivedBeforeStart(sensor.newest, processStartedAt) ? SAFETY_STATUS.restarted : null
  },
  {
    reason: "stale",
    check: ({ sensor, staleAfterDefaultMs }, at) => isStale2(sensor.settings, sensor.newest.timestamp, at, staleAfterDefaultMs) ? SAFETY_STATUS.stale : null,
    changesAt: ({ sensor, staleAfterDefaultMs }, now) => staleAt2(sensor.settings, sensor.newest.timestamp, now, staleAfterDefaultMs)
  },
  {
    reason: "invalid",
    check: ({ sensor }) => {
      const range = sensorRange(sensor);
      return isValid(sensor.newest.value, range) ? null : SAFETY_STATUS.invalid(sensor.newest.value, range);
    }
  },
  {
    reason: "stuck",
    check: ({ sensor }, at) => isStuckRun(sensor.run, sensor.settings.stuck_after, at) ? SAFETY_STATUS.stuck(sensor.newest.value, sensor.run?.since ?? NaN) : null,
    changesAt: ({ sensor }, now) => stuckAt(sensor.run, sensor.settings.stuck_after, now)
  },
  {
    reason: "interlock",
    check: ({ actuator, interlockSensors, staleAfterDefaultMs }, at) => Array.isArray(actuator.interlocks) && Array.isArray(interlockSensors) ? firstInterlockBlock(actuator.interlocks, interlockSensors, at, staleAfterDefaultMs) : "Interlock: the interlocks are unknown",
    changesAt: ({ actuator, interlockSensors, staleAfterDefaultMs }, now) => Array.isArray(actuator.interlocks) && Array.isArray(interlockSensors) ? interlocksChangeAt(actuator.interlocks, interlockSensors, now, staleAfterDefaultMs) : null
  },
  {
    reason: "empty",
    check: ({ actuator }) => actuator.stock_ml !== null && !(actuator.stock_ml > 0) ? SAFETY_STATUS.empty : null
  },
  {
    reason: "waiting",
    check: (input, at) => periodElapsed(input, at) ? null : SAFETY_STATUS.waiting,
    changesAt: (input, now) => periodElapsed(input, now) ? null : elapsesAt(input.actuator.last_activated, input.actuator.activation_period, now)
  },
  {
    reason: "zero_duration",
    check: ({ actuator }) => actuator.activation_duration > 0 ? null : SAFETY_STATUS.zeroDuration
  },
  {
    reason: "limit",
    check: ({ actuator, doses: doses2 }, at) => {
      if (!Array.isArray(doses2))
        return SAFETY_STATUS.limitUnknown;
      const kind = bindingLimits(actuator, doses2, at)[0];
      if (kind === void 0)
        return null;
      const max = { doses: actuator.max_doses_per_hour, seconds: actuator.max_seconds_per_day, ml: actuator.max_ml_per_day }[kind];
      return SAFETY_STATUS.limit(kind, max);
    },
    changesAt: ({ actuator, doses: doses2 }, now) => Array.isArray(doses2) ? anyLimitFreesAt(actuator, doses2, now) : null
  }
];

// dist/safety/decide.js
function decide(input) {
  const { actuator, sensor, now } = input;
  const newest = sensor?.newest;
  const conditionMet = newest ? conditionHolds(actuator.activation_condition, newest.value, actuator.condition_value) : false;
  const decision = (reason2, status, activate) => ({
    activate,
    status,
    reason: reason2,
    duration: actuator.activation_duration,
    period: actuator.activation_period,
    conditionMet
  });
  for (const rule of RULES) {
    const status = rule.check(input, now);
    if (status !== null)
      return decision(rule.reason, status, false);
  }
  return decision("ok", SAFETY_STATUS.ok, conditionMet);
}

// dist/safety/decision-change.js
function nextDecisionChange(input) {
  const { now } = input;
  if (Number.isNaN(now))
    return null;
  const instants = [];
  for (const rule of RULES) {
    if (rule.changesAt)
      instants.push(rule.changesAt(input, now));
    if (rule.check(input, now) !== null)
      break;
  }
  return earliest(instants);
}

// dist/safety/controller.js
function controllerOfflineAt(lastPolled, lastActivated, controllerTimeout) {
  if (controllerTimeout === null || !(controllerTimeout >= 0) || !Number.isFinite(controllerTimeout))
    return null;
  const contacts = [lastPolled, lastActivated].filter((t) => typeof t === "number" && Number.isFinite(t));
  if (contacts.length === 0)
    return null;
  const lastContact = Math.max(...contacts);
  return firstMillisecondAfter(Number.NEGATIVE_INFINITY, lastContact + controllerTimeout * 1e3, (t) => hasElapsed(lastContact, t, controllerTimeout));
}

// dist/safety/stock.js
var MICROLITRES_PER_ML = 1e6;
var toMicrolitre = (ml) => Math.round(ml * MICROLITRES_PER_ML) / MICROLITRES_PER_ML;
function doseVolume(duration2, flowMlPerS) {
  if (flowMlPerS === null)
    return null;
  return toMicrolitre(duration2 * flowMlPerS);
}
function stockAfterDose(stockMl, volumeMl) {
  if (stockMl === null)
    return null;
  if (volumeMl === null)
    return stockMl;
  const left = toMicrolitre(stockMl - volumeMl);
  return left > 0 ? left : 0;
}
function isStockLow(stockMl, stockLowMl) {
  if (stockMl === null || stockLowMl === null)
    return false;
  return !(stockMl > stockLowMl);
}

// dist/alerts/stock-watch.js
var stockLow = (actuator) => isStockLow(actuator.stock_ml, actuator.stock_low_ml);
function stockWatch(deps) {
  const { store, bus, now, log } = deps;
  const active = /* @__PURE__ */ new Set();
  let chain = Promise.resolve();
  const unsubscribe = [];
  function align(actuatorId) {
    chain = chain.then(async () => {
      let news;
      try {
        news = await store.transaction(async (tx) => {
          const actuator = await tx.actuators.get(actuatorId);
          if (actuator && stockLow(actuator)) {
            return raiseActuatorAlert(tx, deps, actuator, "stock_low", "warning", now(), actuator.stock_ml);
          }
          return clearActuatorAlert(tx, deps, actuatorId, "stock_low", now());
        });
      } catch (error) {
        if (!isUniqueViolation(error))
          log.error({ err: error, actuatorId }, "changing the stock_low alert of an actuator failed");
        return;
      }
      if (news)
        bus.publish("alert", news);
    });
  }
  return {
    async start() {
      unsubscribe.push(bus.subscribe("alert", ({ alert }) => {
        if (alert.actuator_id === null || alert.kind !== "stock_low")
          return;
        if (alert.state === "active")
          active.add(alert.actuator_id);
        else
          active.delete(alert.actuator_id);
      }), bus.subscribe("actuator", (change) => {
        if (change.action === "deleted")
          return void active.delete(change.actuatorId);
        if (isRelayed(change))
          return;
        const id = change.actuator.actuator_id;
        if (change.refill !== void 0 || stockLow(change.actuator) !== active.has(id))
          align(id);
      }));
      for (const alert of await store.alerts.activeOfActuators(["stock_low"]))
        active.add(alert.actuator_id);
      for (const actuator of await store.actuators.all())
        if (stockLow(actuator) && !active.has(actuator.actuator_id))
          align(actuator.actuator_id);
    },
    /** Resolves once the changes asked for so far are done (tests). */
    async idle() {
      let last;
      while (last !== chain) {
        last = chain;
        await last;
      }
    },
    async stop() {
      for (const stop of unsubscribe.splice(0))
        stop();
      await chain;
    }
  };
}

// dist/alerts/watcher.js
init_postgres_relay();

// dist/alerts/transitions.js
function beyond(kind, value, t) {
  if (kind === "high")
    return value > t.threshold_high;
  if (kind === "low")
    return value < t.threshold_low;
  return false;
}
function peakOf(kind, peak, values, t) {
  let out = peak;
  for (const v of values) {
    if (!beyond(kind, v, t))
      continue;
    if (out === null || (kind === "high" ? v > out : v < out))
      out = v;
  }
  return out;
}
var hasSide = (a) => a.kind === "low" || a.kind === "high";
var isCritical = (value, t) => severityOf(valueLevel(value, t)) === "critical";
function transition(state, active, observed, thresholds, now, clearAfterMs) {
  const actions = [];
  const { level, value } = observed;
  const values = value === void 0 ? [] : [value, ...observed.seen ?? []];
  const stale = active.find((a) => a.kind === "stale");
  const stuck = active.find((a) => a.kind === "stuck");
  const onValue = active.filter((a) => a.kind !== "stale" && a.kind !== "stuck");
  if (level === "stale") {
    const quietSince = observed.staleSince ?? now;
    const clearDue = state.level === "ok" && state.okSince !== null && quietSince - state.okSince >= clearAfterMs;
    const calmDue2 = state.calmSince !== null && quietSince - state.calmSince >= clearAfterMs;
    for (const alert of onValue) {
      const { alert_id: alertId, last_value: lastValue, peak } = alert;
      if (clearDue)
        actions.push({ type: "clear", alertId, lastValue, peak });
      else if (calmDue2 && alert.severity === "critical" && hasSide(alert))
        actions.push({ type: "escalate", alertId, severity: "warning", lastValue, peak });
    }
    if (!stale)
      actions.push({ type: "raise", kind: "stale", severity: "warning", value: null, peak: null });
    return { state: { level, okSince: null, calmSince: null }, actions };
  }
  if (stale)
    actions.push({ type: "clear", alertId: stale.alert_id, lastValue: null, peak: null });
  if (level === null || value === void 0)
    return { state: { ...state, level }, actions };
  if (observed.stuck && !stuck)
    actions.push({ type: "raise", kind: "stuck", severity: "warning", value, peak: null });
  if (!observed.stuck && stuck)
    actions.push({ type: "clear", alertId: stuck.alert_id, lastValue: value, peak: stuck.peak });
  const kind = kindOf(level);
  const calmSince = isCritical(value, thresholds) ? null : values.some((v) => isCritical(v, thresholds)) ? now : state.calmSince ?? now;
  const calmDue = calmSince !== null && now - calmSince >= clearAfterMs;
  let stillCritical = false;
  for (const alert of onValue) {
    const peak = peakOf(alert.kind, alert.peak, values, thresholds);
    const { alert_id: alertId } = alert;
    if (kind !== void 0 && alert.kind !== kind) {
      actions.push({ type: "clear", alertId, lastValue: value, peak });
    } else if (alert.severity === "warning" && severityOf(level) === "critical") {
      actions.push({ type: "escalate", alertId, severity: "critical", lastValue: value, peak });
    } else if (alert.severity === "critical" && calmDue && hasSide(alert)) {
      actions.push({ type: "escalate", alertId, severity: "warning", lastValue: value, peak });
    } else {
      stillCritical ||= alert.severity === "critical" && hasSide(alert);
      if (peak !== alert.peak || value !== alert.last_value)
        actions.push({ type: "update", alertId, lastValue: value, peak });
    }
  }
  const pendingCalm = stillCritical ? calmSince : null;
  if (kind !== void 0) {
    if (!onValue.some((a) => a.kind === kind)) {
      actions.push({ type: "raise", kind, severity: severityOf(level), value, peak: peakOf(kind, null, values, thresholds) });
    }
    return { state: { level, okSince: null, calmSince: pendingCalm }, actions };
  }
  if (onValue.length === 0)
    return { state: { level, okSince: null, calmSince: null }, actions };
  const okSince = state.level === "ok" && state.okSince !== null ? state.okSince : now;
  if (now - okSince < clearAfterMs)
    return { state: { level, okSince, calmSince: pendingCalm }, actions };
  const cleared = new Set(onValue.map((a) => a.alert_id));
  const rest = actions.filter((a) => !((a.type === "update" || a.type === "escalate") && cleared.has(a.alertId)));
  for (const alert of onValue) {
    rest.push({ type: "clear", alertId: alert.alert_id, lastValue: value, peak: alert.peak });
  }
  return { state: { level, okSince: null, calmSince: null }, actions: rest };
}
function nextCheckAt(state, newestTimestamp, active, staleAt3, clearAfterMs, stuckAt2) {
  const instants = [];
  const valueAlerts = active.filter((a) => a.kind !== "stale" && a.kind !== "stuck");
  const known = state.level !== "stale" && state.level !== null;
  if (newestTimestamp !== void 0 && known)
    instants.push(staleAt3(newestTimestamp));
  if (state.level === "ok" && state.okSince !== null && valueAlerts.length > 0)
    instants.push(state.okSince + clearAfterMs);
  if (known && stuckAt2 !== void 0 && stuckAt2 !== null)
    instants.push(stuckAt2);
  if (known && state.calmSince !== null && valueAlerts.some((a) => a.severity === "critical" && hasSide(a))) {
    instants.push(state.calmSince + clearAfterMs);
  }
  return instants.length > 0 ? Math.min(...instants) : void 0;
}

// dist/alerts/alarms.js
function stuckDueAt(w, now) {
  const { stuckAfter } = w.thresholds;
  if (!w.newest || stuckAfter === null)
    return null;
  if (!isStuckRun(w.run, stuckAfter, now))
    return stuckAt(w.run, stuckAfter, now);
  return w.active.some((a) => a.kind === "stuck") ? null : now;
}
function sensorAlarms({ timers, now, settings, stopped, due }) {
  function dueAt(w) {
    const stuck = stuckDueAt(w, now());
    return nextCheckAt(w.state, w.newest?.timestamp, w.active, (t) => staleAt(t, settings.staleAfterMs), settings.clearAfterMs, stuck);
  }
  function clear3(w) {
    if (w.alarm)
      timers.clear(w.alarm.handle);
    w.alarm = void 0;
  }
  function arm(sensorId, w) {
    if (stopped())
      return;
    const at = dueAt(w);
    if (at === void 0)
      return clear3(w);
    if (w.alarm && w.alarm.at <= at)
      return;
    set(sensorId, w, at);
  }
  function set(sensorId, w, at) {
    if (w.alarm)
      timers.clear(w.alarm.handle);
    const alarm = {
      at,
      handle: timers.set(() => {
        if (w.alarm !== alarm)
          return;
        w.alarm = void 0;
        const next = dueAt(w);
        if (next !== void 0 && next <= now())
          due(sensorId);
        else
          arm(sensorId, w);
      }, at - now())
    };
    w.alarm = alarm;
  }
  return { arm, set, clear: clear3 };
}

// dist/alerts/evaluate.js
async function apply(tx, action, sensorId, now) {
  switch (action.type) {
    case "raise":
      await tx.alerts.raise({
        sensor_id: sensorId,
        kind: action.kind,
        severity: action.severity,
        raised_at: now,
        value: action.value,
        peak: action.peak
      });
      return "raised";
    case "escalate":
      await tx.alerts.change(action.alertId, { severity: action.severity, last_value: action.lastValue, peak: action.peak });
      return "escalated";
    case "update":
      await tx.alerts.change(action.alertId, { last_value: action.lastValue, peak: action.peak });
      return void 0;
    case "clear":
      await tx.alerts.change(action.alertId, {
        state: "cleared",
        cleared_at: now,
        ...action.lastValue === null ? {} : { last_value: action.lastValue, peak: action.peak }
      });
      return "cleared";
  }
}
async function evaluateSensor(store, sensorId, now, settings, seen = [], skipIfBusy = false) {
  return store.transaction(async (tx) => {
    const sensor = await tx.sensors.getKept(sensorId);
    const nothing = {
      exists: false,
      prototypeId: -1,
      thresholds: void 0,
      state: { level: null, okSince: null, calmSince: null },
      newest: void 0,
      run: null,
      active: [],
      events: [],
      nextCheckAt: void 0
    };
    if (!sensor)
      return nothing;
    const stored = await tx.alerts.lockLevel(sensorId, skipIfBusy);
    if (!stored)
      return { ...nothing, exists: true, busy: true };
    const newest = await tx.measurements.last(sensorId);
    const before = await tx.alerts.active([sensorId], LEVEL_ALERT_KINDS);
    const limits = thresholdsOf(sensor);
    const level = sensorLevel(newest, sensor, now, settings.staleAfterMs, { range: limits.range });
    const value = level === null || level === "stale" ? void 0 : newest?.value;
    const run = limits.stuckAfter === null ? null : await tx.measurements.equalRun(sensorId);
    const stuck = newest !== void 0 && isStuckRun(run, limits.stuckAfter, now);
    const { state, actions } = transition({ level: stored.level, okSince: stored.ok_since, calmSince: stored.calm_since }, before, { level, value, seen, stuck, staleSince: level === "stale" && newest ? staleAt(newest.timestamp, settings.staleAfterMs) : void 0 }, sensor, now, settings.clearAfterMs);
    const touched = [];
    for (const action of actions) {
      const event = await apply(tx, action, sensorId, now);
      if (event && action.type !== "raise")
        touched.push({ alertId: action.alertId, event });
    }
    if (state.level !== stored.level || state.okSince !== stored.ok_since || state.calmSince !== stored.calm_since) {
      await tx.alerts.saveLevel(sensorId, state);
    }
    const events = [];
    let after = before;
    if (actions.length > 0) {
      after = await tx.alerts.active([sensorId], LEVEL_ALERT_KINDS);
      for (const { alertId, event } of touched) {
        const row = await tx.alerts.get(alertId);
        events.push({ event, alert: alertOf(row, sensor.prototype_id) });
      }
      const known = new Set(before.map((a) => a.alert_id));
      for (const row of after)
        if (!known.has(row.alert_id))
          events.push({ event: "raised", alert: alertOf(row, sensor.prototype_id) });
      await enqueueNotifications(tx.alerts, settings.webhookUrls, events, now);
    }
    return {
      exists: true,
      prototypeId: sensor.prototype_id,
      thresholds: limits,
      state,
      newest,
      run,
      active: after,
      events,
      nextCheckAt: nextCheckAt(state, newest?.timestamp, after, (t) => staleAt(t, settings.staleAfterMs), settings.clearAfterMs, newest && limits.stuckAfter !== null ? stuckAt(run, limits.stuckAfter, now) : null)
    };
  });
}

// dist/alerts/evaluation.js
var RETRY_MS2 = 5e3;
var BUSY_RETRY_MS = 1e3;
function isUniqueViolation2(error) {
  const e = error;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/.test(e?.message ?? "");
}
function sensorEvaluation(deps) {
  const { store, bus, now, timers, settings, log, watched, alarms } = deps;
  async function evaluateOnce(sensorId, seen, skipIfBusy) {
    try {
      return await evaluateSensor(store, sensorId, now(), settings, seen, skipIfBusy);
    } catch (error) {
      if (!isUniqueViolation2(error))
        throw error;
      return evaluateSensor(store, sensorId, now(), settings, seen);
    }
  }
  return async function evaluate(sensorId, skipIfBusy) {
    const w = watched.get(sensorId);
    const seen = w ? w.seen : [];
    if (w)
      w.seen = [];
    let result;
    try {
      result = await evaluateOnce(sensorId, seen, skipIfBusy);
    } catch (error) {
      log.error({ err: error, sensorId }, "evaluating the alerts of a sensor failed; trying again shortly");
      if (w)
        w.seen.push(...seen);
      timers.set(() => deps.enqueue(sensorId), RETRY_MS2);
      return;
    }
    if (!result.exists)
      return deps.forget(sensorId);
    if (result.busy) {
      if (w)
        alarms.set(sensorId, w, now() + BUSY_RETRY_MS);
      return;
    }
    const entry2 = watched.get(sensorId) ?? deps.track(sensorId, result.prototypeId, result.thresholds);
    if (result.newest && isNewer(result.newest, entry2.newest))
      entry2.newest = result.newest;
    entry2.state = result.state;
    entry2.run = result.run;
    entry2.active = result.active;
    for (const news of result.events)
      bus.publish("alert", news);
    alarms.arm(sensorId, entry2);
  };
}

// dist/alerts/evaluation-queue.js
function evaluationQueue(evaluate) {
  const queued = /* @__PURE__ */ new Set();
  const alarmOnly = /* @__PURE__ */ new Set();
  let running;
  let stopped = false;
  async function drain() {
    await new Promise((resolve4) => setImmediate(resolve4));
    while (!stopped && queued.size > 0) {
      const sensorId = queued.values().next().value;
      queued.delete(sensorId);
      await evaluate(sensorId, alarmOnly.delete(sensorId));
    }
    running = void 0;
  }
  return {
    enqueue(sensorId, byAlarm = false) {
      if (stopped)
        return;
      if (!byAlarm)
        alarmOnly.delete(sensorId);
      else if (!queued.has(sensorId))
        alarmOnly.add(sensorId);
      queued.add(sensorId);
      running ??= drain();
    },
    /** A sensor that is gone. */
    drop(sensorId) {
      queued.delete(sensorId);
    },
    /** Resolves once the evaluations queued so far are done. */
    async idle() {
      while (running)
        await running;
    },
    /** Nothing more is queued or started; resolves once the evaluation under way is done. */
    stop() {
      stopped = true;
      return running ?? Promise.resolve();
    }
  };
}

// dist/alerts/following.js
function following({ now, watched, track, forget, alarms, enqueue }) {
  return {
    /** One sensor's newest row of a committed batch: compared in memory; an evaluation only when something changes. */
    newestMeasured(row, relayed) {
      const sensorId = row.sensor_id;
      const w = watched.get(sensorId);
      if (!w) {
        if (!relayed)
          enqueue(sensorId);
        return;
      }
      if (!isNewer(row, w.newest))
        return;
      const unstuck = w.newest !== void 0 && w.newest.value !== row.value && w.active.some((a) => a.kind === "stuck");
      if (w.thresholds.stuckAfter !== null)
        w.run = runAfter(w.run, w.newest, row);
      w.newest = row;
      const stuckNow = isStuckRun(w.run, w.thresholds.stuckAfter, now()) && !w.active.some((a) => a.kind === "stuck");
      const level = readingLevel(row.value, w.thresholds, w.thresholds.range);
      if (relayed) {
        if (level !== w.state.level) {
          const calm = severityOf(level) !== "critical";
          w.state = { level, okSince: level === "ok" ? now() : null, calmSince: calm ? w.state.calmSince ?? now() : null };
          return alarms.arm(sensorId, w);
        }
      } else if (unstuck || stuckNow || level !== w.state.level || w.active.some((a) => a.last_value !== row.value)) {
        w.seen.push(row.value);
        if (w.seen.length > 2)
          w.seen = [Math.min(...w.seen), Math.max(...w.seen)];
        enqueue(sensorId);
      }
      if (!w.alarm || w.thresholds.stuckAfter !== null)
        alarms.arm(sensorId, w);
    },
    /** A measurement deleted: the sensor's newest one is read again by an evaluation. */
    measurementDeleted(measurement) {
      const w = watched.get(measurement.sensor_id);
      if (w?.newest?.measurement_id === measurement.measurement_id) {
        w.newest = void 0;
        enqueue(measurement.sensor_id);
      }
    },
    /** Measurements replaced in bulk. */
    generated(sensorIds, relayed) {
      for (const sensorId of sensorIds) {
        const w = watched.get(sensorId);
        if (w)
          w.newest = void 0;
        if (!relayed)
          enqueue(sensorId);
      }
    },
    /** A sensor created or changed: new thresholds may change its level. */
    sensorChanged(sensor, relayed) {
      const w = watched.get(sensor.sensor_id);
      if (!w)
        return void track(sensor.sensor_id, sensor.prototype_id, thresholdsOf(sensor));
      w.prototypeId = sensor.prototype_id;
      if (sameThresholds(w.thresholds, thresholdsOf(sensor)))
        return;
      w.thresholds = thresholdsOf(sensor);
      if (!relayed)
        enqueue(sensor.sensor_id);
    },
    /** A prototype deleted: its sensors went with it. */
    prototypeDeleted(prototypeId) {
      for (const [sensorId, w] of watched)
        if (w.prototypeId === prototypeId)
          forget(sensorId);
    },
    /** Alert events, from this instance or another: the active alerts known here follow them. */
    heard({ event, alert }) {
      const sensorId = alert.sensor_id;
      const w = sensorId === null || !isLevelAlertKind(alert.kind) ? void 0 : watched.get(sensorId);
      if (!w || sensorId === null || event === "acknowledged")
        return;
      const rest = w.active.filter((a) => a.alert_id !== alert.alert_id);
      w.active = alert.state === "active" ? [...rest, alert] : rest;
      if (event === "raised" && alert.kind === "stale")
        w.state = { level: "stale", okSince: null, calmSince: null };
      if (!w.active.some((a) => a.kind !== "stale"))
        w.state = { ...w.state, okSince: null };
      if (!w.active.some((a) => a.kind !== "stale" && a.severity === "critical"))
        w.state = { ...w.state, calmSince: null };
      alarms.arm(sensorId, w);
    }
  };
}

// dist/alerts/watch-start.js
async function watchAll({ store, now, settings, watched, track, alarms, enqueue }) {
  const [sensors, levels, active] = await Promise.all([
    store.sensors.list(),
    store.alerts.levels(),
    store.alerts.active(void 0, LEVEL_ALERT_KINDS)
  ]);
  const levelOf = new Map(levels.map((l) => [l.sensor_id, l]));
  const newest = await Promise.all(sensors.map((s) => store.measurements.last(s.sensor_id)));
  const runs = await Promise.all(sensors.map((s) => s.stuck_after === null ? null : store.measurements.equalRun(s.sensor_id)));
  const at = now();
  sensors.forEach((sensor, i) => {
    if (watched.has(sensor.sensor_id))
      return;
    const w = track(sensor.sensor_id, sensor.prototype_id, thresholdsOf(sensor));
    const stored = levelOf.get(sensor.sensor_id);
    w.newest = newest[i];
    w.run = runs[i];
    w.state = { level: stored?.level ?? null, okSince: stored?.ok_since ?? null, calmSince: stored?.calm_since ?? null };
    w.active = active.filter((a) => a.sensor_id === sensor.sensor_id);
    const level = sensorLevel(w.newest, w.thresholds, at, settings.staleAfterMs, { range: w.thresholds.range });
    const value = level === null || level === "stale" ? void 0 : w.newest?.value;
    const staleSince = level === "stale" && w.newest ? staleAt(w.newest.timestamp, settings.staleAfterMs) : void 0;
    const stuck = w.newest !== void 0 && isStuckRun(w.run, w.thresholds.stuckAfter, at);
    const next = transition(w.state, w.active, { level, value, staleSince, stuck }, w.thresholds, at, settings.clearAfterMs);
    const waitsMoved = next.state.okSince !== w.state.okSince || next.state.calmSince !== w.state.calmSince;
    if (next.actions.length > 0 || waitsMoved)
      enqueue(sensor.sensor_id);
    else {
      w.state = next.state;
      alarms.arm(sensor.sensor_id, w);
    }
  });
}

// dist/alerts/watcher.js
function alertWatcher({ store, bus, now, timers, settings, log }) {
  const watched = /* @__PURE__ */ new Map();
  let stopped = false;
  const unsubscribe = [];
  const track = (sensorId, prototypeId, thresholds) => {
    const w = newWatched(prototypeId, thresholds);
    watched.set(sensorId, w);
    return w;
  };
  const forget = (sensorId) => {
    const w = watched.get(sensorId);
    if (w)
      alarms.clear(w);
    watched.delete(sensorId);
    queue.drop(sensorId);
  };
  const enqueue = (sensorId) => queue.enqueue(sensorId);
  const alarms = sensorAlarms({ timers, now, settings, stopped: () => stopped, due: (sensorId) => queue.enqueue(sensorId, true) });
  const evaluate = sensorEvaluation({ store, bus, now, timers, settings, log, watched, track, forget, alarms, enqueue });
  const queue = evaluationQueue(evaluate);
  const follow = following({ now, watched, track, forget, alarms, enqueue });
  return {
    /** Reads the sensors, their newest measurements, levels and active alerts; evaluates what changed while stopped. */
    async start() {
      unsubscribe.push(bus.subscribe("measurements", (change) => {
        const relayed = isRelayed(change);
        forNewestOfEach(change.rows, (row) => follow.newestMeasured(row, relayed));
      }), bus.subscribe("measurementDeleted", ({ measurement }) => follow.measurementDeleted(measurement)), bus.subscribe("generated", (change) => follow.generated(change.sensorIds, isRelayed(change))), bus.subscribe("sensor", (change) => change.action === "deleted" ? forget(change.sensorId) : follow.sensorChanged(change.sensor, isRelayed(change))), bus.subscribe("prototype", (change) => {
        if (change.action === "deleted")
          follow.prototypeDeleted(change.prototypeId);
      }), bus.subscribe("alert", follow.heard));
      await watchAll({ store, now, settings, watched, track, alarms, enqueue });
    },
    /** Resolves once the evaluations queued so far are done (tests, and a clean stop). */
    idle: () => queue.idle(),
    async stop() {
      stopped = true;
      const drained = queue.stop();
      for (const stop of unsubscribe)
        stop();
      await drained;
      for (const w of watched.values())
        alarms.clear(w);
      watched.clear();
    }
  };
}

// dist/alerts/webhooks.js
var DEFAULT_WEBHOOK_TIMING = { timeoutMs: 1e4, firstDelayMs: 1e3, maxDelayMs: 36e5 };
var BATCH = 16;
var BUSY_RETRY_MS2 = 1e3;
async function discardBody(response) {
  await response.body?.cancel().catch(() => void 0);
}
function nextAttempt(createdAt, attempts, at, s) {
  const deadline = createdAt + s.retryForMs;
  if (at >= deadline)
    return void 0;
  const delay = Math.min(s.firstDelayMs * 2 ** Math.min(attempts - 1, 40), s.maxDelayMs);
  return Math.min(at + delay, deadline);
}
function webhookDelivery({ store, bus, now, timers, settings, log }) {
  const stop = new AbortController();
  const loops = new Map(settings.urls.map((url) => [url, { running: void 0, again: false, alarm: void 0 }]));
  let unsubscribe;
  function kick(url) {
    const loop = loops.get(url);
    if (!loop || stop.signal.aborted)
      return;
    if (loop.running) {
      loop.again = true;
      return;
    }
    loop.running = run(url, loop).finally(() => {
      loop.running = void 0;
      if (loop.again)
        kick(url);
    });
  }
  function wakeAt(url, loop, at) {
    if (stop.signal.aborted)
      return;
    if (loop.alarm !== void 0)
      timers.clear(loop.alarm);
    loop.alarm = timers.set(() => {
      loop.alarm = void 0;
      kick(url);
    }, at - now());
  }
  async function run(url, loop) {
    loop.again = false;
    try {
      const done = await store.exclusively(`alert-webhooks ${url}`, async () => {
        for (; ; ) {
          if (stop.signal.aborted)
            return true;
          const due = await store.alerts.due(url, now(), BATCH);
          if (due.length === 0)
            return true;
          await Promise.all(due.map((n) => deliver(url, n)));
        }
      });
      if (done === void 0)
        return wakeAt(url, loop, now() + BUSY_RETRY_MS2);
      const next = await store.alerts.nextDue(url);
      if (next !== void 0)
        wakeAt(url, loop, next);
    } catch (error) {
      log.error({ err: error, url }, "webhook delivery failed to read its outbox; trying again shortly");
      wakeAt(url, loop, now() + BUSY_RETRY_MS2 * 5);
    }
  }
  async function deliver(url, n) {
    let failure;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": n.idempotency_key },
        body: n.payload,
        signal: AbortSignal.any([AbortSignal.timeout(settings.timeoutMs), stop.signal]),
        redirect: "manual"
      });
      await discardBody(response);
      if (response.ok)
        return store.alerts.done(n.notification_id);
      failure = `HTTP ${response.status}`;
    } catch (error) {
      if (stop.signal.aborted)
        return;
      failure = error.name === "TimeoutError" ? `no answer within ${settings.timeoutMs} ms` : String(error.cause ?? error);
    }
    const attempts = n.attempts + 1;
    const at = nextAttempt(n.created_at, attempts, now(), settings);
    if (at === void 0) {
      log.warn({ url, alertId: n.alert_id, attempts, error: failure }, "alert notification given up after ALERT_WEBHOOK_RETRY_FOR");
      return store.alerts.done(n.notification_id);
    }
    await store.alerts.retryAt(n.notification_id, at, failure);
  }
  return {
    start() {
      if (settings.urls.length === 0)
        return;
      unsubscribe = bus.subscribe("alert", () => {
        for (const url of loops.keys())
          kick(url);
      });
      for (const url of loops.keys())
        kick(url);
    },
    async stop() {
      stop.abort();
      unsubscribe?.();
      for (const loop of loops.values()) {
        if (loop.alarm !== void 0)
          timers.clear(loop.alarm);
        await loop.running;
      }
    }
  };
}

// dist/alerts/index.js
async function register2(app, deps) {
  const { store, bus, now, config, log } = deps;
  const options = deps.alertsOptions ?? {};
  const timers = options.timers ?? systemTimers;
  const webhookUrls2 = config.alertWebhookUrls;
  const watcher = alertWatcher({
    store,
    bus,
    now,
    timers,
    settings: { staleAfterMs: config.staleAfterMs, clearAfterMs: config.alertClearAfterMs, webhookUrls: webhookUrls2 },
    log
  });
  const webhooks = webhookDelivery({
    store,
    bus,
    now,
    timers,
    settings: { ...DEFAULT_WEBHOOK_TIMING, ...options.webhooks, urls: webhookUrls2, retryForMs: config.alertWebhookRetryForMs },
    log
  });
  const judge = doseJudge({ store, bus, now, timers, log, webhookUrls: webhookUrls2 });
  const actuators = actuatorWatch({ store, bus, now, log, webhookUrls: webhookUrls2 });
  const stock = stockWatch({ store, bus, now, log, webhookUrls: webhookUrls2 });
  const alerts = alertService({
    store,
    bus,
    now,
    staleAfterMs: config.staleAfterMs,
    webhookUrls: webhookUrls2,
    decisionOf: deps.services.actuators.decision
  });
  await watcher.start();
  await judge.start();
  await actuators.start();
  await stock.start();
  webhooks.start();
  app.decorate("alertsSettled", async () => {
    await watcher.idle();
    await judge.idle();
    await actuators.idle();
    await stock.idle();
    await watcher.idle();
  });
  await app.register(routes_default2, { alerts, authMode: config.authMode });
  app.addHook("onClose", async () => {
    await actuators.stop();
    await stock.stop();
    await judge.stop();
    await watcher.stop();
    await webhooks.stop();
  });
  return { watcher, webhooks, alerts, judge, actuators, stock };
}

// dist/auth/authenticate.js
init_errors();
var notAuthenticated = () => new Unauthenticated("Not authenticated");
var invalidCredentials = () => new Unauthenticated("Could not validate credentials");
var forbidden = () => new Forbidden("Not enough permissions");
function bearerToken(request) {
  const header = request.headers.authorization;
  if (!header)
    return request.routeOptions.config.tokenInQuery ? queryToken(request) : void 0;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : "";
}
function queryToken(request) {
  const token = request.query?.access_token;
  if (token === void 0)
    return void 0;
  return typeof token === "string" ? token.trim() : "";
}
function authenticator(tokens, store, now, uses) {
  return async function authenticate(request) {
    const token = bearerToken(request);
    if (token === void 0)
      throw notAuthenticated();
    const at = now();
    const claims = token ? await tokens.verify(token, at) : void 0;
    if (!claims)
      throw invalidCredentials();
    const [user, device2] = await Promise.all([
      store.users.get(claims.sub),
      claims.tid === void 0 ? void 0 : store.deviceTokens.get(claims.tid)
    ]);
    if (!user || user.user_id !== claims.uid || user.token_generation !== claims.gen)
      throw invalidCredentials();
    const sessionGeneration = claims.tid === void 0 ? claims.sgen ?? 0 : void 0;
    if (claims.tid !== void 0 && device2?.user_id !== user.user_id)
      throw invalidCredentials();
    if (sessionGeneration !== void 0 && user.session_generation !== sessionGeneration)
      throw invalidCredentials();
    if (claims.tid !== void 0)
      uses.note(claims.tid, at);
    return {
      user_id: user.user_id,
      username: user.username,
      permissions: claims.permissions & user.permissions,
      token,
      generation: claims.gen,
      sessionGeneration,
      loginAt: claims.login === void 0 || claims.tid !== void 0 ? void 0 : claims.login * 1e3,
      tokenId: claims.tid,
      expiresAt: claims.exp * 1e3
    };
  };
}

// dist/auth/login-throttle.js
import { createHash } from "node:crypto";
var DEFAULT_LIMITS = { windowMs: 15 * 6e4, perUsername: 5, perAddress: 20, maxTracked: 1e5 };
function addressBucket(ip) {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped)
    return mapped[1];
  if (!ip.includes(":"))
    return ip;
  const address = ip.split("%")[0].toLowerCase();
  const [head, tail] = address.split("::");
  const front = head ? head.split(":") : [];
  const back = tail === void 0 || tail === "" ? [] : tail.split(":");
  const groups = tail === void 0 ? front : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups.slice(0, 4).map((g) => /^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16).toString(16) : g).join(":")}::/64`;
}
function loginThrottle(options = DEFAULT_LIMITS) {
  const limits = { ...DEFAULT_LIMITS, ...options };
  const failures = /* @__PURE__ */ new Map();
  const digest = (text2) => createHash("sha256").update(text2).digest("base64url");
  const userKey = (username) => digest(`user:${username.toLowerCase()}`);
  const addressKey = (address) => digest(`addr:${addressBucket(address)}`);
  function recent(key, now) {
    const list = failures.get(key);
    if (!list)
      return [];
    const kept = list.filter((t) => t > now - limits.windowMs);
    if (kept.length === 0)
      failures.delete(key);
    else if (kept.length !== list.length)
      failures.set(key, kept);
    return kept;
  }
  function record(key, list) {
    failures.delete(key);
    failures.set(key, list);
    if (failures.size <= limits.maxTracked)
      return;
    const oldest = failures.keys().next().value;
    if (oldest !== void 0)
      failures.delete(oldest);
  }
  function withdraw(key, at) {
    const list = failures.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (!list || i < 0)
      return;
    list.splice(i, 1);
    if (list.length === 0)
      failures.delete(key);
  }
  return {
    limits,
    /**
     * 0 when the attempt may go ahead (it is then counted as a failure until `succeeded`), or the
     * seconds to wait before trying again.
     */
    admit(username, address, now) {
      const checks = [
        [userKey(username), limits.perUsername],
        [addressKey(address), limits.perAddress]
      ];
      let waitMs = 0;
      for (const [key, limit] of checks) {
        const list = recent(key, now);
        if (list.length >= limit)
          waitMs = Math.max(waitMs, list[list.length - limit] + limits.windowMs - now);
      }
      if (waitMs > 0)
        return Math.max(1, Math.ceil(waitMs / 1e3));
      for (const [key] of checks)
        record(key, [...recent(key, now), now]);
      return 0;
    },
    /** The attempt admitted at `admittedAt` was right: it was no failure, and the username starts afresh. */
    succeeded(username, address, admittedAt) {
      failures.delete(userKey(username));
      withdraw(addressKey(address), admittedAt);
    },
    /** How many usernames and addresses are being tracked (for tests and metrics). */
    tracked() {
      return failures.size;
    },
    /** The characters held in keys and the failure times held, over every entry (for tests and metrics). */
    footprint() {
      let keyChars = 0;
      let times = 0;
      for (const [key, list] of failures) {
        keyChars += key.length;
        times += list.length;
      }
      return { keyChars, times };
    }
  };
}

// dist/auth/permissions.js
var PERMISSIONS = {
  post_measurements: 1,
  read: 2,
  modify: 4,
  admin: 8,
  /** What a pump controller needs and no more: its actuators' state and settings, run reports, actuator events. */
  control: 16
};
var ALL_PERMISSIONS = 31;
var NEW_USER_PERMISSIONS = PERMISSIONS.read | PERMISSIONS.modify;
function accessBits(access) {
  return typeof access === "string" ? PERMISSIONS[access] : access.reduce((bits, name) => bits | PERMISSIONS[name], 0);
}
function permissionsOfNames(names) {
  let bits = 0;
  for (const name of names) {
    if (!Object.hasOwn(PERMISSIONS, name)) {
      throw new Error(`unknown permission "${name}" (known: ${Object.keys(PERMISSIONS).join(", ")})`);
    }
    bits |= PERMISSIONS[name];
  }
  return bits;
}

// dist/auth/guard.js
var isDocumentation = (url) => url === "/docs" || url.startsWith("/docs/");
var accessOf = (declared) => declared ?? "modify";
function registerGuard(app, authenticate, store) {
  app.decorateRequest("principal", void 0);
  app.addHook("onRoute", (route) => {
    if (route.config?.access === void 0 && !isDocumentation(route.url) && route.method !== "OPTIONS") {
      app.log.warn({ method: route.method, url: route.url }, "route declares no access: it needs the modify permission");
    }
  });
  app.addHook("onRequest", async (request) => {
    if (request.method === "OPTIONS" || request.is404)
      return;
    const url = request.routeOptions.url ?? "";
    if (isDocumentation(url))
      return;
    const access = accessOf(request.routeOptions.config.access);
    if (access === "public")
      return;
    if (access === "admin" && url.startsWith("/users/new") && !await store.users.any())
      return;
    const principal = await authenticate(request);
    if ((principal.permissions & accessBits(access)) === 0)
      throw forbidden();
    request.principal = principal;
  });
}

// dist/auth/passwords.js
import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
var argon2id = {
  hash: (password) => hash(password, {
    algorithm: 2
    /* Algorithm.Argon2id */
  }),
  verify: (passwordHash, password) => verify(passwordHash, password)
};
function hashPassword(password) {
  return argon2id.hash(password);
}
async function verifyPassword(passwordHash, password) {
  try {
    return await argon2id.verify(passwordHash, password);
  } catch {
    return false;
  }
}
var dummy;
function dummyHash() {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  return dummy;
}

// dist/auth/token-use.js
var USE_RESOLUTION_MS = 6e4;
function tokenUseNotes() {
  let pending = /* @__PURE__ */ new Map();
  const noted = /* @__PURE__ */ new Map();
  return {
    note(tokenId, at) {
      const last = noted.get(tokenId);
      if (last !== void 0 && at - last < USE_RESOLUTION_MS && at >= last)
        return;
      noted.set(tokenId, at);
      pending.set(tokenId, at);
    },
    /** The notes to write, handed over once. */
    take() {
      const batch = pending;
      pending = /* @__PURE__ */ new Map();
      if (noted.size > 1e4)
        noted.clear();
      return batch;
    },
    /** A noted use not yet written, or undefined. */
    pendingFor(tokenId) {
      return pending.get(tokenId);
    },
    /** Forgets a revoked token. */
    forget(tokenId) {
      pending.delete(tokenId);
      noted.delete(tokenId);
    }
  };
}

// dist/auth/tokens.js
import { createHmac, randomBytes as randomBytes2, randomUUID as randomUUID2 } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";
var SECRET_KEY = "token_secret";
var FINGERPRINT_KEY = "token_secret_fingerprint";
function secretFingerprint(secret) {
  return createHmac("sha256", secret).update("sensorhub token secret fingerprint").digest("base64url");
}
async function tokenSecret(configured, settings) {
  let secret = configured;
  if (!secret) {
    await settings.setIfAbsent(SECRET_KEY, randomBytes2(48).toString("base64url"));
    secret = await settings.get(SECRET_KEY);
    if (!secret)
      throw new Error("the token secret could not be stored");
  }
  await settings.set(FINGERPRINT_KEY, secretFingerprint(secret));
  return new TextEncoder().encode(secret);
}
var isCount = (value) => Number.isSafeInteger(value) && value >= 0;
function tokenService(secret, defaultTtlMs) {
  return {
    /**
     * A signed HS256 JWT for the user, valid `ttlMs` from `now`: by default a session token whose
     * password was given now. `permissions` narrows what it carries (a refresh keeps what it had).
     */
    async issue(user, now, ttlMs = defaultTtlMs, kind = { session: { loginAt: now } }, permissions = user.permissions) {
      const extra = "session" in kind ? { sgen: user.session_generation ?? 0, login: Math.floor(kind.session.loginAt / 1e3) } : { tid: kind.device.tokenId };
      return new SignJWT({ permissions, uid: user.user_id, gen: user.token_generation, ...extra }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setSubject(user.username).setIssuedAt(Math.floor(now / 1e3)).setExpirationTime(Math.floor((now + ttlMs) / 1e3)).setJti(randomUUID2()).sign(secret);
    },
    /** The claims of a well-formed, unexpired token signed with our secret; undefined otherwise. */
    async verify(token, now) {
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ["HS256"],
          currentDate: new Date(now),
          requiredClaims: ["sub", "iat", "exp", "jti"]
        });
        const { sub, permissions, uid, gen, exp, tid, sgen, login } = payload;
        if (typeof sub !== "string" || !isCount(permissions) || !isCount(uid) || !isCount(gen) || !isCount(exp))
          return void 0;
        const optional = [tid, sgen, login];
        if (optional.some((v) => v !== void 0 && !isCount(v)) || tid !== void 0 && sgen !== void 0)
          return void 0;
        return {
          sub,
          uid,
          gen,
          permissions,
          exp,
          tid,
          sgen,
          login
        };
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError)
          return void 0;
        throw error;
      }
    }
  };
}

// dist/auth/index.js
async function createAuth(config, store, now, limits) {
  await dummyHash();
  const tokens = tokenService(await tokenSecret(config.tokenSecret, store.settings), config.tokenTtlMinutes * 6e4);
  const uses = tokenUseNotes();
  return {
    tokens,
    uses,
    authenticate: authenticator(tokens, store, now, uses),
    throttle: loginThrottle(limits),
    /** Writes the device token uses noted so far (also at close). */
    flushUses: () => store.deviceTokens.noteUses(uses.take())
  };
}
async function register3(app, { config, auth, store, log, timers = systemTimers }) {
  if (config.authMode === "enforced")
    registerGuard(app, auth.authenticate, store);
  let timer;
  let stopped = false;
  const flush = () => auth.flushUses().catch((error) => log.warn({ err: error }, "could not record when device tokens were last used"));
  const schedule = () => {
    timer = timers.set(() => {
      void flush().finally(() => {
        if (!stopped)
          schedule();
      });
    }, USE_RESOLUTION_MS / 2);
  };
  schedule();
  app.addHook("onClose", async () => {
    stopped = true;
    timers.clear(timer);
    await flush();
  });
}

// dist/core/bus.js
function changeBus({ onListenerError = (error) => console.error("change listener failed:", error) } = {}) {
  const listeners = {
    measurements: /* @__PURE__ */ new Set(),
    measurementDeleted: /* @__PURE__ */ new Set(),
    generated: /* @__PURE__ */ new Set(),
    prototype: /* @__PURE__ */ new Set(),
    sensor: /* @__PURE__ */ new Set(),
    actuator: /* @__PURE__ */ new Set(),
    decision: /* @__PURE__ */ new Set(),
    dose: /* @__PURE__ */ new Set(),
    controller: /* @__PURE__ */ new Set(),
    alert: /* @__PURE__ */ new Set(),
    note: /* @__PURE__ */ new Set(),
    tokensRevoked: /* @__PURE__ */ new Set()
  };
  return {
    publish(topic, change) {
      const subscribed = listeners[topic];
      if (subscribed.size === 0)
        return;
      for (const listener of [...subscribed]) {
        if (!subscribed.has(listener))
          continue;
        try {
          listener(change);
        } catch (error) {
          onListenerError(error, topic);
        }
      }
    },
    subscribe(topic, listener) {
      const subscribed = listeners[topic];
      const entry2 = (change) => listener(change);
      subscribed.add(entry2);
      return () => {
        subscribed.delete(entry2);
      };
    }
  };
}

// dist/dashboard/index.js
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";

// dist/http/security-headers.js
var DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ");
var DOCS_CSP = DASHBOARD_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");
var pageHeaders = (csp) => ({ "content-security-policy": csp, "x-frame-options": "DENY", "referrer-policy": "no-referrer" });
var DASHBOARD_HEADERS = pageHeaders(DASHBOARD_CSP);
var DOCS_HEADERS = pageHeaders(DOCS_CSP);
var NOSNIFF = { "x-content-type-options": "nosniff" };
var setting = (headers) => (_request, reply, done) => {
  reply.headers(headers);
  done();
};
var dashboardHeaders = setting(DASHBOARD_HEADERS);
var docsHeaders = setting(DOCS_HEADERS);
function registerNosniff(app) {
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(NOSNIFF);
    done();
  });
}

// dist/dashboard/public-settings.js
function maskedUrl(url) {
  try {
    const parsed = new URL(url);
    const hidden = parsed.username || parsed.password ? "\u2026@" : "";
    const rest = parsed.pathname !== "/" || parsed.search || parsed.hash ? "/\u2026" : "";
    return `${parsed.protocol}//${hidden}${parsed.host}${rest}`;
  } catch {
    return "(not a URL)";
  }
}
function publicSettings(config) {
  return {
    auth_mode: config.authMode,
    stale_after_seconds: config.staleAfterMs / 1e3,
    /** Devices publish under this prefix; null when the service does not join a broker. */
    mqtt_prefix: config.mqtt?.prefix ?? null,
    alert_webhooks: config.alertWebhookUrls.map(maskedUrl),
    /** False: the camera page can only show an uploaded picture (PICTURE_SOURCE unset). */
    picture_source_set: config.pictureSource !== void 0
  };
}

// dist/dashboard/index.js
var DEFAULT_ROOT = fileURLToPath(new URL("../../dist/web", import.meta.url));
var ASSET_CACHE = { maxAge: "365d", immutable: true };
async function dashboardRoutes(app, { config, store, root = DEFAULT_ROOT }) {
  await app.register(fastifyStatic, { root, serve: false });
  const route = { config: { access: "public" }, schema: { hide: true } };
  app.addHook("onRequest", dashboardHeaders);
  const notBuilt = (reply) => reply.code(503).send({ detail: "The dashboard is not built: run `npm run build`." });
  app.get("/", route, (_request, reply) => reply.redirect("/ui/", 302));
  app.get("/ui/", route, (_request, reply) => {
    if (!existsSync(`${root}/index.html`))
      return notBuilt(reply);
    return reply.header("cache-control", "no-cache").sendFile("index.html", { cacheControl: false });
  });
  const has = (url) => app.findRoute({ method: "GET", url }) !== null;
  app.get("/ui/settings.json", route, async (_request, reply) => {
    reply.header("cache-control", "no-cache");
    const needsFirstAdmin = config.authMode === "enforced" && store !== void 0 && !await store.users.any();
    return {
      ...publicSettings(config),
      needs_first_admin: needsFirstAdmin,
      features: { alerts: has("/alerts"), prototype_status: has("/prototypes/0/status") }
    };
  });
  app.get("/ui/assets/*", route, (request, reply) => reply.sendFile(`assets/${request.params["*"]}`, ASSET_CACHE));
}
async function register4(app, { config, store }) {
  await app.register(dashboardRoutes, { config, store });
}

// dist/doses/routes.js
import { Type as Type12 } from "@sinclair/typebox";
init_schema_common();

// dist/doses/docs.js
var ACTUATORS2 = "Actuators";
var doseDocs = {
  totals: doc(ACTUATORS2, "Actuator Dose Totals", "actuatorDoseTotals", "What the actuator\u2019s doses came to per bucket, ascending: `doses`, `seconds` of run and `volume_ml`, so \u201Chow much acid went in this week\u201D is one request. `bucket` is 1h or 1d (default; PT1H, P1D, 3600 and 86400 are read the same), anything else 422. The window is that of GET /measurements/{sensor_id}: time_delta, start_time, end_time. Buckets are aligned in UTC (hours on the hour, days at UTC midnight) and answered whole: a bucket that overlaps the window counts every dose it holds, and its start and end say which. Buckets without doses are left out. `volume_ml` adds the volumes the doses were recorded with (duration \xD7 the flow_ml_per_s of the moment); doses recorded without a flow add nothing to it, and a bucket where none has a volume answers null. 404 when the actuator does not exist."),
  refill: doc(ACTUATORS2, "Refill Actuator", "refillActuator", "Records that the pump\u2019s bottle was refilled: `stock_ml` becomes the amount sent (what the bottle holds now, not an amount added), and the refill is kept with its time and, in enforced mode, the user. The bottle\u2019s decision is no longer `empty` once it holds more than 0, and the stock_low alert clears once the stock is above stock_low_ml (a refill that leaves it at or under the mark keeps the alert). Answers the actuator. 422 when stock_ml is missing, negative or not a number, and when the actuator has no flow_ml_per_s (without a flow a dose\u2019s volume is unknown, so the stock could not go down); 404 when it does not exist. Needs the modify permission in enforced mode.")
};

// dist/doses/schemas.js
init_schema_common();
import { Type as Type11 } from "@sinclair/typebox";
var DoseTotalsQuery = Type11.Object({
  bucket: Type11.Optional(Type11.String({
    description: "The bucket: 1h (UTC hours) or 1d (UTC days, the default); PT1H, P1D, 3600 and 86400 say the same.",
    examples: ["1d"]
  })),
  time_delta: Type11.Optional(Type11.String({
    description: "Duration. Alone: [now - time_delta, now]; with end_time: [end_time - time_delta, end_time). Not with start_time."
  })),
  start_time: Type11.Optional(DateTimeInput("Only doses at or after this instant; unset: from the first.")),
  end_time: Type11.Optional(DateTimeInput("Only doses before this instant; unset: up to the last."))
});
var DoseTotals = Type11.Object({
  start: DateTimeOutput("The bucket\u2019s start, on a UTC hour or midnight."),
  end: DateTimeOutput("The bucket\u2019s end (exclusive)."),
  doses: Type11.Integer({ description: "Doses recorded in the bucket (and in the window)." }),
  seconds: Type11.Number({ description: "Their run time, seconds." }),
  volume_ml: Type11.Union([Type11.Number(), Type11.Null()], {
    description: "Their volume, millilitres, from the doses that have one (recorded with a flow); null when none has."
  })
}, { title: "DoseTotals" });
var RefillBody = Type11.Object({
  stock_ml: Type11.Number({ minimum: 0, description: "What the bottle holds now, millilitres (\u2265 0): it replaces stock_ml." })
}, { title: "Refill" });

// dist/doses/routes.js
var totalsJson = (b) => ({
  start: new Date(b.start).toISOString(),
  end: new Date(b.end).toISOString(),
  doses: b.doses,
  seconds: b.seconds,
  volume_ml: b.volume_ml
});
var doseRoutes = async (app, { services: { doses: doses2 }, config }) => {
  const whoIs = (request) => config.authMode === "enforced" ? request.principal?.username ?? null : null;
  app.get("/actuators/:actuator_id/doses", {
    config: { access: "read" },
    schema: {
      ...doseDocs.totals,
      params: ActuatorIdParams,
      querystring: DoseTotalsQuery,
      response: { 200: Type12.Array(DoseTotals), ...errorResponses(404, 422) }
    },
    handler: async (request) => (await doses2.totals(request.params.actuator_id, request.query)).map(totalsJson)
  });
  app.post("/actuators/:actuator_id/refill", {
    config: { access: "modify" },
    schema: { ...doseDocs.refill, params: ActuatorIdParams, body: RefillBody, response: { 200: Actuator, ...errorResponses(404, 422) } },
    handler: async (request) => actuatorView(await doses2.refill(request.params.actuator_id, request.body.stock_ml, whoIs(request)))
  });
};
var routes_default3 = doseRoutes;

// dist/doses/index.js
async function register5(app, deps) {
  await app.register(routes_default3, deps);
}

// dist/drain.js
var REFUSAL = JSON.stringify({ detail: "Service is shutting down, try again shortly." });
function drainer() {
  let draining = false;
  let inFlight = 0;
  let whenIdle;
  const onStart = [];
  const finished = () => {
    inFlight--;
    if (draining && inFlight === 0)
      whenIdle?.();
  };
  function refuse(req, res) {
    req.resume();
    req.once("end", () => {
      res.writeHead(503, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(REFUSAL),
        "retry-after": "5",
        connection: "close"
      });
      res.end(REFUSAL);
    });
  }
  return {
    get draining() {
      return draining;
    },
    /** `listener`, answering 503 once draining and counting the requests it lets through. */
    wrap(listener) {
      return (req, res) => {
        if (draining)
          return refuse(req, res);
        inFlight++;
        res.on("close", finished);
        listener(req, res);
      };
    },
    /** Runs when the drain starts: for requests that would never finish by themselves (event streams). */
    onStart(listener) {
      onStart.push(listener);
    },
    /** Starts refusing new requests; resolves once the requests in flight have finished. */
    start() {
      draining = true;
      for (const listener of onStart)
        listener();
      if (inFlight === 0)
        return Promise.resolve();
      return new Promise((resolve4) => {
        whenIdle = resolve4;
      });
    }
  };
}

// dist/events/index.js
import { randomBytes as randomBytes3 } from "node:crypto";

// dist/config/index.js
init_duration();
import { hostname } from "node:os";

// dist/config/mqtt.js
var MqttSettingError = class extends Error {
  variable;
  constructor(variable, message) {
    super(message);
    this.variable = variable;
  }
};
function prefixProblem(prefix) {
  if (prefix.startsWith("$"))
    return "must not start with $ (reserved for the broker)";
  if (/[+#]/.test(prefix))
    return "must not contain the wildcards + or #";
  if (prefix.includes(String.fromCharCode(0)))
    return "must not contain the NUL character";
  if (prefix.split("/").some((level) => level === ""))
    return "must not start or end with / nor contain //";
  if (Buffer.byteLength(prefix) > 1e3)
    return "is too long";
  return void 0;
}
function parseBrokerUrl(raw) {
  let parsed;
  try {
    parsed = new URL(raw);
  } catch {
    throw new MqttSettingError("MQTT_URL", `expected mqtt://[user:password@]host[:port] or mqtts://\u2026, got "${raw}"`);
  }
  if (parsed.protocol !== "mqtt:" && parsed.protocol !== "mqtts:") {
    throw new MqttSettingError("MQTT_URL", `expected the scheme mqtt:// or mqtts://, got "${parsed.protocol}//"`);
  }
  if (parsed.hostname === "")
    throw new MqttSettingError("MQTT_URL", "has no host");
  if (parsed.pathname !== "" && parsed.pathname !== "/" || parsed.search !== "" || parsed.hash !== "") {
    throw new MqttSettingError("MQTT_URL", "takes no path, query or fragment: the topics come from MQTT_TOPIC_PREFIX");
  }
  const decode = (part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new MqttSettingError("MQTT_URL", "has credentials with a malformed %-escape");
    }
  };
  const username = parsed.username === "" ? void 0 : decode(parsed.username);
  const password = parsed.password === "" ? void 0 : decode(parsed.password);
  const port = parsed.port === "" ? parsed.protocol === "mqtts:" ? 8883 : 1883 : Number(parsed.port);
  return { url: `${parsed.protocol}//${parsed.host.replace(/:\d+$/, "")}:${port}`, username, password };
}
var CLIENT_ID = /^[\x21-\x7e]{1,128}$/;
var UNTRUSTED_BROKER = "MQTT_URL is set with AUTH_MODE=enforced, but MQTT writes carry no token: whoever can publish to the broker could write measurements and report pump runs. Give each device its own broker user and an ACL limiting it to its own topics, then set MQTT_TRUST_BROKER=true (or unset MQTT_URL, or use AUTH_MODE=open)";
function mqttSettings(env, defaultClientId) {
  const prefix = env.MQTT_TOPIC_PREFIX ?? "sensorhub";
  const problem = prefixProblem(prefix);
  if (problem)
    throw new MqttSettingError("MQTT_TOPIC_PREFIX", `"${prefix}" ${problem}`);
  const discoveryPrefix = env.MQTT_HA_DISCOVERY_PREFIX ?? "homeassistant";
  const discoveryProblem = prefixProblem(discoveryPrefix);
  if (discoveryProblem)
    throw new MqttSettingError("MQTT_HA_DISCOVERY_PREFIX", `"${discoveryPrefix}" ${discoveryProblem}`);
  const clientId = env.MQTT_CLIENT_ID ?? defaultClientId.replace(/[^\x21-\x7e]/g, "_").slice(0, 128);
  if (!CLIENT_ID.test(clientId)) {
    throw new MqttSettingError("MQTT_CLIENT_ID", `expected 1 to 128 printable characters without spaces, got "${clientId}"`);
  }
  if (env.MQTT_URL === void 0)
    return void 0;
  const broker = parseBrokerUrl(env.MQTT_URL);
  const trustBroker = env.MQTT_TRUST_BROKER ?? false;
  if (env.AUTH_MODE === "enforced" && !trustBroker)
    throw new MqttSettingError("MQTT_TRUST_BROKER", UNTRUSTED_BROKER);
  return { ...broker, prefix, clientId, haDiscovery: env.MQTT_HA_DISCOVERY ?? true, discoveryPrefix, trustBroker };
}

// dist/config/index.js
var ConfigError = class extends Error {
  variable;
  constructor(variable, message) {
    super(`${variable}: ${message}`);
    this.variable = variable;
    this.name = "ConfigError";
  }
};
var MAX_TIMELAPSE_FRAMES = 1e6;
var DEFAULT_TIMELAPSE_MAX_BYTES = 2 * 1024 ** 3;
function text(env, name) {
  const value = env[name]?.trim();
  return value === void 0 || value === "" ? void 0 : value;
}
function integer(env, name, fallback, min, max) {
  const raw = text(env, name);
  if (raw === void 0)
    return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}
var BYTE_UNITS = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };
function byteSize(env, name, fallback) {
  const raw = text(env, name);
  if (raw === void 0)
    return fallback;
  const match = /^(\d{1,16}(?:\.\d{1,6})?)\s*([kmgt]?)(?:i?b)?$/i.exec(raw);
  const bytes = match ? Math.floor(Number(match[1]) * BYTE_UNITS[match[2].toLowerCase()]) : NaN;
  if (!Number.isSafeInteger(bytes))
    throw new ConfigError(name, `expected a size in bytes like 2147483648 or 2G (0: no limit), got "${raw}"`);
  return bytes;
}
function oneOf(env, name, fallback, allowed) {
  const raw = text(env, name)?.toLowerCase();
  if (raw === void 0)
    return fallback;
  if (!allowed.includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(", ")}, got "${raw}"`);
  }
  return raw;
}
function boolean(env, name, fallback) {
  const raw = text(env, name)?.toLowerCase();
  if (raw === void 0)
    return fallback;
  if (["true", "1", "yes", "on"].includes(raw))
    return true;
  if (["false", "0", "no", "off"].includes(raw))
    return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}
function databaseUrl(env) {
  const raw = text(env, "DATABASE_URL") ?? "sqlite:./data/sensorhub.db";
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\/.+/.test(raw))
    return raw;
  throw new ConfigError("DATABASE_URL", `expected sqlite:<file> or postgres://\u2026, got "${raw}"`);
}
function corsOrigins(env) {
  const raw = text(env, "CORS_ORIGINS") ?? "*";
  if (raw === "*")
    return "*";
  const origins = raw.split(",").map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError("CORS_ORIGINS", `"${origin}" is not an origin like https://dashboard.example:8080`);
    }
  }
  return origins;
}
function staleAfter(env) {
  const raw = text(env, "STALE_AFTER");
  if (raw === void 0)
    return 24 * 60 * 60 * 1e3;
  const ms = parseDuration(raw);
  if (ms === void 0)
    throw new ConfigError("STALE_AFTER", `expected a duration like PT24H or 86400, got "${raw}"`);
  return ms;
}
function retention(env, name) {
  const raw = text(env, name);
  if (raw === void 0)
    return void 0;
  const ms = parseDuration(raw);
  if (ms === void 0 || ms <= 0)
    throw new ConfigError(name, `expected a positive duration like P365D or 31536000, got "${raw}"`);
  return ms;
}
function duration(env, name, fallbackMs, example) {
  const raw = text(env, name);
  if (raw === void 0)
    return fallbackMs;
  const ms = parseDuration(raw);
  if (ms === void 0)
    throw new ConfigError(name, `expected a duration like ${example}, got "${raw}"`);
  return ms;
}
function backupEvery(env) {
  const ms = duration(env, "BACKUP_EVERY", 24 * 36e5, "PT24H or 86400");
  if (ms < 6e4)
    throw new ConfigError("BACKUP_EVERY", `expected at least one minute (PT1M), got "${text(env, "BACKUP_EVERY")}"`);
  return ms;
}
function webhookUrls(env) {
  const raw = text(env, "ALERT_WEBHOOK_URLS");
  if (raw === void 0)
    return [];
  const urls = raw.split(",").map((u) => u.trim()).filter(Boolean);
  for (const url of urls) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      parsed = void 0;
    }
    if (!parsed || parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new ConfigError("ALERT_WEBHOOK_URLS", `"${url}" is not an http:// or https:// URL`);
    }
  }
  return [...new Set(urls)];
}
function pictureSource(env) {
  const raw = text(env, "PICTURE_SOURCE");
  if (raw === void 0)
    return void 0;
  if (/^(https?:\/\/.+|file:.+|exec:.+)$/.test(raw))
    return raw;
  throw new ConfigError("PICTURE_SOURCE", `expected http(s)://\u2026, file:<path> or exec:<command>, got "${raw}"`);
}
function tokenSecret2(env) {
  const raw = text(env, "TOKEN_SECRET");
  if (raw !== void 0 && raw.length < 32) {
    throw new ConfigError("TOKEN_SECRET", "must be at least 32 characters long");
  }
  return raw;
}
function httpTimeouts(env) {
  const httpHeadersTimeoutMs = integer(env, "HTTP_HEADERS_TIMEOUT_MS", 1e4, 100, 36e5);
  const httpRequestTimeoutMs = integer(env, "HTTP_REQUEST_TIMEOUT_MS", 3e4, 100, 36e5);
  if (httpHeadersTimeoutMs > httpRequestTimeoutMs) {
    throw new ConfigError("HTTP_HEADERS_TIMEOUT_MS", `must not exceed HTTP_REQUEST_TIMEOUT_MS (${httpRequestTimeoutMs})`);
  }
  const httpIdleTimeoutMs = integer(env, "HTTP_IDLE_TIMEOUT_MS", 12e4, 1e3, 24 * 36e5);
  return { httpHeadersTimeoutMs, httpRequestTimeoutMs, httpIdleTimeoutMs };
}
var DEFAULT_EVENTS_MAX_STREAMS = 256;
var DEFAULT_EVENTS_MAX_STREAMS_PER_CLIENT = 32;
function eventStreamBounds(env, httpMaxConnections) {
  const half = Math.floor(httpMaxConnections / 2);
  const eventsMaxStreams = integer(env, "EVENTS_MAX_STREAMS", Math.min(DEFAULT_EVENTS_MAX_STREAMS, half), 0, 1e6);
  if (eventsMaxStreams > half) {
    throw new ConfigError("EVENTS_MAX_STREAMS", `must leave at least half of HTTP_MAX_CONNECTIONS (${httpMaxConnections}) to the rest of the API: at most ${half}, got ${eventsMaxStreams}`);
  }
  const eventsMaxStreamsPerClient = integer(env, "EVENTS_MAX_STREAMS_PER_CLIENT", DEFAULT_EVENTS_MAX_STREAMS_PER_CLIENT, 1, 1e6);
  return { eventsMaxStreams, eventsMaxStreamsPerClient };
}
function mqtt(env, port, authMode) {
  const flag = (name) => text(env, name) === void 0 ? void 0 : boolean(env, name, false);
  try {
    return mqttSettings({
      MQTT_URL: text(env, "MQTT_URL"),
      MQTT_TOPIC_PREFIX: text(env, "MQTT_TOPIC_PREFIX"),
      MQTT_CLIENT_ID: text(env, "MQTT_CLIENT_ID"),
      MQTT_HA_DISCOVERY: flag("MQTT_HA_DISCOVERY"),
      MQTT_HA_DISCOVERY_PREFIX: text(env, "MQTT_HA_DISCOVERY_PREFIX"),
      MQTT_TRUST_BROKER: flag("MQTT_TRUST_BROKER"),
      AUTH_MODE: authMode
    }, `sensorhub-${hostname()}-${port}`);
  } catch (error) {
    if (error instanceof MqttSettingError)
      throw new ConfigError(error.variable, error.message);
    throw error;
  }
}
function loadConfig(env = process.env) {
  const port = integer(env, "PORT", 8e3, 0, 65535);
  const httpMaxConnections = integer(env, "HTTP_MAX_CONNECTIONS", 512, 1, 1e6);
  const authMode = oneOf(env, "AUTH_MODE", "open", ["open", "enforced"]);
  return {
    port,
    host: text(env, "HOST") ?? "0.0.0.0",
    databaseUrl: databaseUrl(env),
    corsOrigins: corsOrigins(env),
    authMode,
    tokenSecret: tokenSecret2(env),
    tokenTtlMinutes: integer(env, "TOKEN_TTL_MINUTES", 60, 1, 10 * 365 * 24 * 60),
    sessionMaxDays: integer(env, "SESSION_MAX_DAYS", 30, 1, 3650),
    staleAfterMs: staleAfter(env),
    pictureSource: pictureSource(env),
    pictureTimeoutMs: integer(env, "PICTURE_TIMEOUT_MS", 5e3, 1, 6e5),
    pictureCacheMs: integer(env, "PICTURE_CACHE_MS", 2e3, 0, 36e5),
    seedDefaults: boolean(env, "SEED_DEFAULTS", true),
    bodyLimitBytes: integer(env, "BODY_LIMIT_BYTES", 1024 * 1024, 1024, 1024 * 1024 * 1024),
    logLevel: oneOf(env, "LOG_LEVEL", "info", ["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
    databasePoolSize: integer(env, "DATABASE_POOL_SIZE", 10, 1, 1e3),
    databaseConnectTimeoutMs: integer(env, "DATABASE_CONNECT_TIMEOUT_MS", 5e3, 100, 6e5),
    databaseStatementTimeoutMs: integer(env, "DATABASE_STATEMENT_TIMEOUT_MS", 6e4, 100, 24 * 36e5),
    sqliteSynchronous: oneOf(env, "SQLITE_SYNCHRONOUS", "normal", ["normal", "full"]),
    retentionRawMs: retention(env, "RETENTION_RAW"),
    retentionFiveMinuteMs: retention(env, "RETENTION_5M"),
    ...httpTimeouts(env),
    httpMaxConnections,
    ...eventStreamBounds(env, httpMaxConnections),
    timelapseDir: text(env, "TIMELAPSE_DIR") ?? "./data/timelapses",
    timelapseMaxFrames: integer(env, "TIMELAPSE_MAX_FRAMES", 1e5, 1, MAX_TIMELAPSE_FRAMES),
    timelapseMaxBytes: byteSize(env, "TIMELAPSE_MAX_BYTES", DEFAULT_TIMELAPSE_MAX_BYTES),
    ffmpegPath: text(env, "FFMPEG_PATH") ?? "ffmpeg",
    alertClearAfterMs: duration(env, "ALERT_CLEAR_AFTER", 6e4, "PT1M or 60"),
    alertWebhookUrls: webhookUrls(env),
    alertWebhookRetryForMs: duration(env, "ALERT_WEBHOOK_RETRY_FOR", 24 * 36e5, "PT24H or 86400"),
    backupDir: text(env, "BACKUP_DIR"),
    backupEveryMs: backupEvery(env),
    backupKeep: integer(env, "BACKUP_KEEP", 7, 1, 1e4),
    mqtt: mqtt(env, port, authMode)
  };
}
function storeOptions(config) {
  return {
    seedDefaults: config.seedDefaults,
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    sqliteSynchronous: config.sqliteSynchronous
  };
}

// dist/actuators/decision-watcher.js
var sameState = (a, b) => a.activate === b.activate && a.status === b.status && a.reason === b.reason && a.duration === b.duration && a.period === b.period && (a.reason !== "limit" || a.conditionMet === b.conditionMet);
var isPromise = (value) => typeof value?.then === "function";
function decisionWatcher({ store, inputs, withLastPolled = (a) => a, bus, timers, log }) {
  const watched = /* @__PURE__ */ new Map();
  let stopUpdates;
  let stopped = false;
  function forget(actuatorId) {
    const entry2 = watched.get(actuatorId);
    if (entry2?.alarm !== void 0)
      timers.clear(entry2.alarm);
    watched.delete(actuatorId);
  }
  function schedule(entry2, input) {
    if (entry2.alarm !== void 0)
      timers.clear(entry2.alarm);
    entry2.alarm = void 0;
    if (stopped)
      return;
    const next = nextDecisionChange(input);
    if (next === null)
      return;
    entry2.alarm = timers.set(() => {
      entry2.alarm = void 0;
      if (watched.get(entry2.actuatorId) === entry2)
        refresh(entry2.actuatorId, false);
    }, next - input.now);
  }
  function apply2(entry2, input, quiet) {
    if (watched.get(entry2.actuatorId) !== entry2 || stopped)
      return;
    const actuator = inputs.actuator(entry2.actuatorId);
    if (!input || !actuator)
      return forget(entry2.actuatorId);
    const state = decide(input);
    const differs = entry2.state === void 0 || !sameState(state, entry2.state);
    entry2.state = state;
    if (!quiet && (entry2.changed || differs)) {
      entry2.changed = false;
      const { interlocks: _kept, ...row } = actuator;
      bus.publish("decision", { actuator: { ...withLastPolled(row), interlocks: actuator.interlocks }, state });
    }
    if (quiet)
      entry2.changed = false;
    schedule(entry2, input);
  }
  function refresh(actuatorId, changed, quiet = false) {
    if (stopped)
      return;
    let entry2 = watched.get(actuatorId);
    if (!entry2) {
      entry2 = { actuatorId, asked: 0, changed: false };
      watched.set(actuatorId, entry2);
    }
    entry2.changed ||= changed;
    const asked = ++entry2.asked;
    const target = entry2;
    const failed = (error) => log.error({ err: error, actuatorId }, "reading what the dosing decision needs failed");
    let input;
    try {
      input = inputs.input(actuatorId);
    } catch (error) {
      return failed(error);
    }
    if (!isPromise(input))
      return apply2(target, input, quiet);
    return input.then((read) => {
      if (target.asked === asked)
        apply2(target, read, quiet);
    }, failed);
  }
  return {
    /** Decides every actuator (announcing nothing), then follows the changes of their inputs. */
    async start() {
      stopUpdates = inputs.onChange((actuatorIds, changed) => {
        for (const id of actuatorIds)
          void refresh(id, changed);
      });
      const actuators = await store.actuators.all();
      await Promise.all(actuators.filter((a) => !watched.has(a.actuator_id)).map((a) => refresh(a.actuator_id, false, true)));
    },
    /** The decision last made for an actuator (undefined for one not known). */
    stateOf(actuatorId) {
      return watched.get(actuatorId)?.state;
    },
    stop() {
      stopped = true;
      stopUpdates?.();
      for (const entry2 of watched.values())
        if (entry2.alarm !== void 0)
          timers.clear(entry2.alarm);
      watched.clear();
    }
  };
}

// dist/events/feed.js
init_json_text();

// dist/events/filter.js
var EVENT_TYPES = ["measurements", "actuator", "sensor", "prototype", "alert", "dose", "note"];
function parseTypes(list) {
  if (list === void 0)
    return { types: new Set(EVENT_TYPES) };
  const types = /* @__PURE__ */ new Set();
  for (const name of list.split(",").map((n) => n.trim())) {
    if (name === "")
      continue;
    if (!EVENT_TYPES.includes(name))
      return { unknown: name };
    types.add(name);
  }
  return { types };
}
function wants(subscription, type, scope) {
  if (!subscription.types.has(type))
    return false;
  const { sensorIds, prototypeId } = subscription;
  if (sensorIds && !scope.sensorIds.some((id) => sensorIds.has(id)))
    return false;
  if (prototypeId !== void 0 && !scope.prototypeIds.includes(prototypeId))
    return false;
  return true;
}

// dist/events/recent-events.js
function recentEvents(instance, { maxEvents, maxBytes }) {
  const kept = [];
  let bytes = 0;
  let lastSeq = 0;
  return {
    /** The id of the next event: sequence numbers start at 1 on every start. */
    next() {
      return ++lastSeq;
    },
    idOf: (seq) => `${instance}-${seq}`,
    keep(event) {
      kept.push(event);
      bytes += event.size;
      while (kept.length > maxEvents || bytes > maxBytes && kept.length > 1)
        bytes -= kept.shift().size;
    },
    /**
     * The events after the one `lastEventId` names, or undefined when that cannot be told: an id
     * of another instance, one older than what is kept, or one that was never given.
     */
    since(lastEventId) {
      const match = /^(.+)-(\d+)$/.exec(lastEventId.trim());
      if (!match || match[1] !== instance)
        return void 0;
      const seq = Number(match[2]);
      if (seq > lastSeq)
        return void 0;
      if (seq === lastSeq)
        return [];
      const oldest = kept[0];
      if (!oldest || oldest.seq > seq + 1)
        return void 0;
      return kept.filter((e) => e.seq > seq);
    }
  };
}

// dist/events/sse.js
var sseEvent = (id, type, data) => `id: ${id}
event: ${type}
data: ${data}

`;
var sseComment = (text2) => `: ${text2}

`;
var sseRetry = (ms) => `retry: ${ms}

`;

// dist/events/feed.js
init_dose_view();
var actuatorJson = (a) => JSON.stringify(actuatorView({ ...a, interlocks: a.interlocks ?? [] }));
function eventFeed({ bus, sensors, actuators, instance, recent: limits, deliver, wanted = () => true }) {
  const recent = recentEvents(instance, limits);
  const prototypeOf2 = new Map(sensors.map((s) => [s.sensor_id, s.prototype_id]));
  const sensorOfActuator = new Map(actuators.map((a) => [a.actuator_id, a.sensor_id]));
  const sensorsOf = (prototypeId) => [...prototypeOf2].filter(([, p]) => p === prototypeId).map(([s]) => s);
  const scopeOfSensors = (sensorIds) => ({
    sensorIds,
    prototypeIds: [...new Set(sensorIds.map((id) => prototypeOf2.get(id)).filter((p) => p !== void 0))]
  });
  function emit(type, scope, textFor, size) {
    if (!wanted())
      return;
    const seq = recent.next();
    const event = { seq, size, type, scope, textFor: (subscription) => textFor(seq, subscription) };
    recent.keep(event);
    deliver(event);
  }
  function emitWhole(type, wireName, scope, data) {
    let text2;
    emit(type, scope, (seq) => text2 ??= sseEvent(recent.idOf(seq), wireName, data), data.length);
  }
  function emitMeasurements(rows) {
    const sensorIds = [...new Set(rows.map((r) => r.sensor_id))];
    const scope = scopeOfSensors(sensorIds);
    let whole;
    const size = rows.length * 90;
    emit("measurements", scope, (seq, subscription) => {
      const mine = sensorIds.length === 1 ? rows : rows.filter((r) => wants(subscription, "measurements", scopeOfSensors([r.sensor_id])));
      if (mine.length === 0)
        return void 0;
      if (mine.length === rows.length)
        return whole ??= sseEvent(recent.idOf(seq), "measurements", `[${rows.map(measurementJson).join(",")}]`);
      return sseEvent(recent.idOf(seq), "measurements", `[${mine.map(measurementJson).join(",")}]`);
    }, size);
  }
  const unsubscribe = [
    bus.subscribe("measurements", ({ rows }) => {
      if (rows.length > 0 && wanted())
        emitMeasurements(rows);
    }),
    // §9 has no event for it: the clients showing that sensor's measurements are told to reload,
    // with the ids, so one that keeps the rows can drop just that one.
    bus.subscribe("measurementDeleted", ({ measurement: { measurement_id, sensor_id } }) => emitWhole("measurements", "reset", scopeOfSensors([sensor_id]), JSON.stringify({ reason: "measurement deleted", sensor_id, measurement_id }))),
    // Too many rows to send: the clients of those sensors are told to reload instead.
    bus.subscribe("generated", ({ sensorIds }) => emitWhole("measurements", "reset", scopeOfSensors(sensorIds), '{"reason":"measurements replaced"}')),
    bus.subscribe("decision", ({ actuator, state }) => {
      sensorOfActuator.set(actuator.actuator_id, actuator.sensor_id);
      emitWhole("actuator", "actuator", scopeOfSensors([actuator.sensor_id]), `{"actuator":${actuatorJson(actuator)},"state":${activationJson(state)}}`);
    }),
    bus.subscribe("actuator", (change) => {
      if (change.action !== "deleted") {
        sensorOfActuator.set(change.actuator.actuator_id, change.actuator.sensor_id);
        return;
      }
      const sensorId = sensorOfActuator.get(change.actuatorId);
      sensorOfActuator.delete(change.actuatorId);
      emitWhole("actuator", "actuator", scopeOfSensors(sensorId === void 0 ? [] : [sensorId]), `{"deleted":${change.actuatorId}}`);
    }),
    // Each dose (§15), where the actuator's events go: to the clients of its sensor and prototype.
    bus.subscribe("dose", ({ dose }) => {
      const sensorId = sensorOfActuator.get(dose.actuator_id);
      emitWhole("dose", "dose", scopeOfSensors(sensorId === void 0 ? [] : [sensorId]), JSON.stringify(doseView(dose)));
    }),
    bus.subscribe("sensor", (change) => {
      if (change.action === "deleted") {
        const scope = scopeOfSensors([change.sensorId]);
        prototypeOf2.delete(change.sensorId);
        emitWhole("sensor", "sensor", scope, `{"deleted":${change.sensorId}}`);
        return;
      }
      const { sensor } = change;
      const before = prototypeOf2.get(sensor.sensor_id);
      prototypeOf2.set(sensor.sensor_id, sensor.prototype_id);
      const prototypeIds = before === void 0 || before === sensor.prototype_id ? [sensor.prototype_id] : [before, sensor.prototype_id];
      emitWhole("sensor", "sensor", { sensorIds: [sensor.sensor_id], prototypeIds }, JSON.stringify(sensor));
    }),
    bus.subscribe("alert", (news) => emitWhole(
      "alert",
      "alert",
      // An alert without a sensor (an actuator's, the service's own) reaches the streams not filtered by sensor.
      {
        sensorIds: news.alert.sensor_id === null ? [] : [news.alert.sensor_id],
        prototypeIds: news.alert.prototype_id === null ? [] : [news.alert.prototype_id]
      },
      JSON.stringify({ event: news.event, alert: news.alert })
    )),
    bus.subscribe("prototype", (change) => {
      const prototypeId = change.action === "deleted" ? change.prototypeId : change.prototype.prototype_id;
      const scope = { sensorIds: sensorsOf(prototypeId), prototypeIds: [prototypeId] };
      if (change.action === "deleted") {
        for (const sensorId of scope.sensorIds)
          prototypeOf2.delete(sensorId);
        emitWhole("prototype", "prototype", scope, `{"deleted":${prototypeId}}`);
      } else {
        emitWhole("prototype", "prototype", scope, JSON.stringify(change.prototype));
      }
    }),
    // A note concerns its prototype, and so the charts of its sensors (where it is drawn).
    bus.subscribe("note", (change) => {
      const prototypeId = change.action === "deleted" ? change.prototypeId : change.note.prototype_id;
      const scope = { sensorIds: sensorsOf(prototypeId), prototypeIds: [prototypeId] };
      const data = change.action === "deleted" ? JSON.stringify({ deleted: change.noteId, prototype_id: prototypeId }) : JSON.stringify(change.note);
      emitWhole("note", "note", scope, data);
    })
  ];
  const resetText = (reason2 = "missed events are no longer kept") => sseEvent(recent.idOf(recent.next()), "reset", JSON.stringify({ reason: reason2 }));
  return {
    /** The events after `lastEventId`, or undefined when they are no longer all kept. */
    since: (lastEventId) => recent.since(lastEventId),
    resetText,
    /**
     * What a client resuming from `lastEventId` is sent first: the texts of the events it missed
     * that it subscribes to, or one `reset` when they are no longer all kept or would come to
     * more than `maxBytes` — a replay past the stream's backlog bound would get it cut off before
     * it read a byte, and it would reconnect to the same replay forever.
     */
    resume(lastEventId, subscription, maxBytes) {
      const missed = recent.since(lastEventId);
      if (missed === void 0)
        return [resetText()];
      const texts = [];
      let bytes = 0;
      for (const event of missed) {
        const text2 = wants(subscription, event.type, event.scope) ? event.textFor(subscription) : void 0;
        if (text2 === void 0)
          continue;
        bytes += Buffer.byteLength(text2);
        if (bytes > maxBytes)
          return [resetText("missed events are too many to replay")];
        texts.push(text2);
      }
      return texts;
    },
    stop() {
      for (const stop of unsubscribe)
        stop();
    }
  };
}

// dist/events/metrics.js
import { Counter, Gauge } from "prom-client";
function eventStreamMetrics(registry, streams) {
  const gauge = (name, help, read) => new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    }
  });
  gauge("sensorhub_event_streams_open", "Live event streams (GET /events) open on this instance.", () => streams.count);
  gauge("sensorhub_event_streams_max", "The most live event streams open at once (EVENTS_MAX_STREAMS).", () => streams.maxStreams);
  new Counter({
    name: "sensorhub_event_streams_refused_total",
    help: "New live event streams refused with 503 for EVENTS_MAX_STREAMS or EVENTS_MAX_STREAMS_PER_CLIENT.",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(streams.refused);
    }
  });
}

// dist/events/index.js
init_postgres_relay();

// dist/events/route.js
import { createHash as createHash2 } from "node:crypto";
import { Type as Type13 } from "@sinclair/typebox";
init_errors2();

// dist/http/redact.js
var TOKEN_PARAMETER = "access_token";
var MAY_NAME_TOKEN = /access_token|%/i;
function decodedName(raw) {
  const name = raw.replace(/\+/g, " ");
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
function queryStart(url) {
  const question = url.indexOf("?", 1);
  const hash2 = url.indexOf("#", 1);
  if (question < 0)
    return hash2;
  return hash2 < 0 ? question : Math.min(question, hash2);
}
function withoutToken(url) {
  if (!MAY_NAME_TOKEN.test(url))
    return url;
  const start = queryStart(url);
  if (start < 0)
    return url;
  const parameters = url.slice(start + 1).split("&").map((parameter) => {
    const equals = parameter.indexOf("=");
    const name = equals < 0 ? parameter : parameter.slice(0, equals);
    return decodedName(name).trim().toLowerCase() === TOKEN_PARAMETER ? `${name}=[redacted]` : parameter;
  });
  return `${url.slice(0, start + 1)}${parameters.join("&")}`;
}

// dist/events/route.js
init_schema_common();
init_errors();
var RETRY_MS3 = 3e3;
var FULL_RETRY_AFTER_S = 10;
var EventsQuery = Type13.Object({
  sensor_id: Type13.Optional(Type13.Array(Id(), { description: "Only events about these sensors (repeatable)." })),
  prototype_id: Type13.Optional(Id("Only events about this prototype and its sensors.")),
  types: Type13.Optional(Type13.String({
    description: `Comma-separated subset of: ${EVENT_TYPES.join(", ")}. Default: all.`,
    examples: ["measurements,actuator"]
  })),
  access_token: Type13.Optional(Type13.String({ description: "AUTH_MODE=enforced: the bearer token, for clients that cannot set headers (EventSource). Never logged." }))
});
var DESCRIPTION = [
  "Server-Sent Events (`text/event-stream`): dashboards and pump controllers are told of changes instead of polling.",
  "Events, each with an `id:`, sent only after the change is committed, in commit order:",
  "`measurements` (data: the JSON array of the Measurements one commit stored, only those of the sensors asked for);",
  '`actuator` (data: `{"actuator": Actuator, "state": ActuatorActivation}` whenever the actuator or its decision changes,',
  'including when its activation period elapses or its sensor turns stale, at that moment; `{"deleted": id}` after a delete);',
  '`sensor`, `prototype` (data: the object after a create or update, `{"deleted": id}` after a delete);',
  "`dose` (data: each dose recorded, as GET /actuators/{actuator_id}/activations answers it, with its actuator_id and",
  "volume_ml; about the actuator\u2019s sensor and prototype);",
  '`note` (data: the Note after it is written or changed, `{"deleted": note_id, "prototype_id": \u2026}` after a delete; it',
  "concerns its prototype and that prototype\u2019s sensors);",
  '`reset` (data: `{"reason": \u2026}`): reload what you show \u2014 sent when `Last-Event-ID` names an event no longer kept (or of',
  "another instance) or what was missed is more than the 1 MiB backlog bound, after synthetic data replaced measurements, after a measurement was deleted (to the streams of its",
  'sensor, under the type `measurements`; data: `{"reason": "measurement deleted", "sensor_id": \u2026, "measurement_id": \u2026}`,',
  "so a client that keeps the rows may drop just that one), and after a lost link between instances. A cascade delete",
  'tells of each actuator (`{"deleted": id}`), then each sensor, then the prototype it removed.',
  "Filters: `sensor_id` (repeatable) and `prototype_id` keep the events about those sensors / that prototype (a prototype",
  "event concerns its sensors too); both given, an event must match both. Unknown ids \u2192 404; an unknown type \u2192 422.",
  "A comment line every 15 s keeps the stream alive; `retry:` advises 3 s between reconnections. A client whose unsent",
  "backlog passes 1 MiB is disconnected (it reconnects and resumes with `Last-Event-ID`). Several instances on one",
  "PostgreSQL send every event to every stream; ids name the instance, so a resume on another instance gets `reset`.",
  "Open streams are bounded (EVENTS_MAX_STREAMS in all, EVENTS_MAX_STREAMS_PER_CLIENT per token in enforced mode, per",
  "address otherwise): past either, a new stream gets 503 with `Retry-After`.",
  "AUTH_MODE=enforced: needs the read permission (2); a token with control (16) but not read may open a stream of",
  "`types=actuator` only (any other stream: 403). The token may be given as `?access_token=`. The stream ends when",
  "the token stops being valid: at its expiry, at a logout of its user for a token obtained with a password, at the",
  "revocation of a device token, at the removal of its user (on every instance), and within a minute when the users",
  "command line revokes or removes the user or takes away the permission the stream needs. It just ends, without an",
  "event: reconnecting with that token then gets 401 (403 without the permission), the sign to log in again."
].join(" ");
function clientOf(request) {
  const token = request.principal?.token;
  if (token !== void 0)
    return `token ${createHash2("sha256").update(token).digest("base64url")}`;
  return `address ${addressBucket(request.ip)}`;
}
async function subscriptionOf(store, query) {
  const parsed = parseTypes(query.types);
  if ("unknown" in parsed) {
    throw new InvalidInput({
      loc: ["query", "types"],
      msg: `Unknown event type "${parsed.unknown}" (known: ${EVENT_TYPES.join(", ")})`,
      type: "enum"
    });
  }
  if (query.sensor_id !== void 0) {
    const known = await store.sensors.existing(query.sensor_id);
    const missing = query.sensor_id.find((id) => !known.has(id));
    if (missing !== void 0)
      throw new NotFound(`Sensor ${missing} not found`);
  }
  if (query.prototype_id !== void 0 && !await store.prototypes.exists(query.prototype_id)) {
    throw new NotFound(`Prototype ${query.prototype_id} not found`);
  }
  return {
    types: parsed.types,
    sensorIds: query.sensor_id === void 0 ? void 0 : new Set(query.sensor_id),
    prototypeId: query.prototype_id
  };
}
var eventRoutes = async (app, { store, feed, streams }) => {
  app.get("/events", {
    // A pump controller's token (control, without read) may follow its actuators: `types=actuator` only.
    config: { access: ["read", "control"], tokenInQuery: true },
    schema: {
      tags: ["Live events"],
      summary: "Live Events",
      operationId: "liveEvents",
      description: DESCRIPTION,
      querystring: EventsQuery,
      produces: ["text/event-stream"],
      response: errorResponses(401, 403, 404, 422, 503)
    },
    handler: async (request, reply) => {
      const subscription = await subscriptionOf(store, request.query);
      const actuatorsOnly = subscription.types.size > 0 && [...subscription.types].every((type) => type === "actuator");
      const principal = request.principal;
      const requires = actuatorsOnly ? PERMISSIONS.read | PERMISSIONS.control : PERMISSIONS.read;
      if (principal && (principal.permissions & requires) === 0)
        throw forbidden();
      const client = clientOf(request);
      const refusal3 = streams.refusal(client);
      if (refusal3 !== void 0)
        throw new HttpError(503, refusal3, { "Retry-After": String(FULL_RETRY_AFTER_S), connection: "close" });
      const first = [sseRetry(RETRY_MS3)];
      const lastEventId = request.headers["last-event-id"];
      if (typeof lastEventId === "string" && lastEventId !== "")
        first.push(...feed.resume(lastEventId, subscription, streams.maxBacklogBytes));
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== void 0)
          reply.raw.setHeader(name, value);
      reply.raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        // Proxies that buffer responses (nginx) would hold the events back.
        "x-accel-buffering": "no"
      });
      reply.raw.once("close", () => {
        if (reply.raw.writableFinished)
          return;
        const ms = Math.round(reply.elapsedTime * 100) / 100;
        request.log.info({ method: request.method, url: withoutToken(request.url), status: 200, ms }, "request");
      });
      const holder = principal && {
        userId: principal.user_id,
        generation: principal.generation,
        sessionGeneration: principal.sessionGeneration,
        tokenId: principal.tokenId,
        requires,
        expiresAt: principal.expiresAt
      };
      streams.open(reply.raw, subscription, first, { client, holder });
    }
  });
};
var route_default = eventRoutes;

// dist/events/coalescing-window.js
function coalescingWindow(coalesceMs, clock, flush) {
  let timer;
  let lastWrite = -Infinity;
  function end() {
    timer = void 0;
    lastWrite = clock.now();
    flush();
  }
  return {
    /** True when what comes now is written at once (it then counts as the last write); false: it waits. */
    writesNow() {
      const at = clock.now();
      if (timer !== void 0 || at - lastWrite < coalesceMs)
        return false;
      lastWrite = at;
      return true;
    },
    /** Has what waits written at the end of the window (asked once or many times). */
    flushAtEnd() {
      if (timer === void 0)
        timer = clock.timers.set(end, lastWrite + coalesceMs - clock.now());
    },
    /** Writes what waits now (on shutdown). */
    flushNow() {
      if (timer !== void 0)
        clock.timers.clear(timer);
      end();
    }
  };
}

// dist/events/stream-places.js
function streamPlaces({ maxStreams, maxPerClient }) {
  const byClient = /* @__PURE__ */ new Map();
  let total = 0;
  return {
    /** Why a new stream of `client` is refused, or undefined when there is room for it. */
    refusal(client) {
      if (total >= maxStreams)
        return `Too many event streams open (${maxStreams} at most); try again later`;
      if ((byClient.get(client) ?? 0) >= maxPerClient) {
        return `Too many event streams open for this client (${maxPerClient} at most); close one or try again later`;
      }
      return void 0;
    },
    take(client) {
      total++;
      byClient.set(client, (byClient.get(client) ?? 0) + 1);
    },
    release(client) {
      total--;
      const left = (byClient.get(client) ?? 1) - 1;
      if (left > 0)
        byClient.set(client, left);
      else
        byClient.delete(client);
    },
    /** Streams counted now. */
    get total() {
      return total;
    },
    /** Clients with a stream open now. */
    get clients() {
      return byClient.size;
    }
  };
}

// dist/events/stream-index.js
function streamIndex() {
  const bySensor = /* @__PURE__ */ new Map();
  const byPrototype = /* @__PURE__ */ new Map();
  const unfiltered = /* @__PURE__ */ new Set();
  function keysOf(stream) {
    const { sensorIds, prototypeId } = stream.subscription;
    if (sensorIds)
      return [bySensor, [...sensorIds]];
    if (prototypeId !== void 0)
      return [byPrototype, [prototypeId]];
    return void 0;
  }
  return {
    add(stream) {
      const keys = keysOf(stream);
      if (!keys)
        return void unfiltered.add(stream);
      const [map, ids] = keys;
      for (const id of ids) {
        let set = map.get(id);
        if (!set)
          map.set(id, set = /* @__PURE__ */ new Set());
        set.add(stream);
      }
    },
    delete(stream) {
      const keys = keysOf(stream);
      if (!keys)
        return void unfiltered.delete(stream);
      const [map, ids] = keys;
      for (const id of ids) {
        const set = map.get(id);
        set?.delete(stream);
        if (set?.size === 0)
          map.delete(id);
      }
    },
    /** The streams an event about this scope may concern (each once). */
    candidates(scope) {
      const sources = unfiltered.size > 0 ? [unfiltered] : [];
      for (const id of scope.sensorIds) {
        const set = bySensor.get(id);
        if (set)
          sources.push(set);
      }
      for (const id of scope.prototypeIds) {
        const set = byPrototype.get(id);
        if (set)
          sources.push(set);
      }
      if (sources.length <= 1)
        return sources[0] ?? [];
      const found = /* @__PURE__ */ new Set();
      for (const set of sources)
        for (const stream of set)
          found.add(stream);
      return found;
    }
  };
}

// dist/events/streams.js
function streamRegistry({ maxBacklogBytes, heartbeatMs, coalesceMs, maxStreams, maxPerClient }, { timers, now, window }) {
  const clients = /* @__PURE__ */ new Set();
  const places = streamPlaces({ maxStreams, maxPerClient });
  const waiting = /* @__PURE__ */ new Set();
  const byUser = /* @__PURE__ */ new Map();
  const byPlace = streamIndex();
  function remove(client) {
    if (!clients.delete(client))
      return;
    places.release(client.place);
    waiting.delete(client);
    byPlace.delete(client);
    if (client.holder) {
      timers.clear(client.expiry);
      const streams = byUser.get(client.holder.userId);
      streams?.delete(client);
      if (streams?.size === 0)
        byUser.delete(client.holder.userId);
    }
  }
  let cutOff = 0;
  let heartbeat;
  let closed = false;
  let opened = 0;
  let refused = 0;
  function write(client, text2) {
    const { res } = client;
    if (res.destroyed) {
      remove(client);
      return false;
    }
    if (res.writableLength > maxBacklogBytes) {
      cutOff++;
      remove(client);
      res.destroy();
      return false;
    }
    res.write(text2);
    return true;
  }
  function end(client) {
    remove(client);
    client.res.end();
  }
  function armExpiry(client, holder) {
    const left = holder.expiresAt - now();
    if (left <= 0)
      return end(client);
    client.expiry = timers.set(() => armExpiry(client, holder), left);
  }
  function endWhere(candidates, ends) {
    for (const client of candidates)
      if (client.holder && ends(client.holder))
        end(client);
  }
  function flushWaiting() {
    for (const client of waiting) {
      const text2 = client.pending;
      client.pending = "";
      write(client, text2);
    }
    waiting.clear();
  }
  const coalescing = coalescingWindow(coalesceMs, window ?? { timers: systemTimers, now: () => performance.now() }, flushWaiting);
  function send3(targets, textFor) {
    const atOnce = coalescing.writesNow();
    for (const client of targets) {
      const text2 = textFor(client);
      if (text2 === void 0)
        continue;
      if (atOnce)
        write(client, text2);
      else {
        client.pending += text2;
        waiting.add(client);
      }
    }
    if (!atOnce && waiting.size > 0)
      coalescing.flushAtEnd();
  }
  function beat() {
    const comment = sseComment("keep-alive");
    send3(clients, () => comment);
  }
  return {
    /**
     * Why a new stream of `client` cannot be opened now (a bound is reached), or undefined. Asked
     * right before `open`, with no wait between, so that no other stream takes the place meanwhile.
     */
    refusal(client) {
      const reason2 = places.refusal(client);
      if (reason2 !== void 0)
        refused++;
      return reason2;
    },
    /**
     * Registers a stream whose headers are sent; `first` is written to it before anything else.
     * It holds a place of its owner's client until it ends; with a `holder`, it ends when the
     * holder's token expires or is revoked.
     */
    open(res, subscription, first, { client: place, holder } = { client: "" }) {
      if (closed || res.destroyed) {
        res.end();
        return;
      }
      const client = { res, subscription, place, holder, pending: "" };
      opened++;
      clients.add(client);
      places.take(place);
      byPlace.add(client);
      res.once("close", () => remove(client));
      for (const text2 of first)
        if (!write(client, text2))
          return;
      if (holder) {
        let streams = byUser.get(holder.userId);
        if (!streams)
          byUser.set(holder.userId, streams = /* @__PURE__ */ new Set());
        streams.add(client);
        armExpiry(client, holder);
      }
      if (!heartbeat) {
        heartbeat = setInterval(beat, heartbeatMs);
        heartbeat.unref();
      }
    },
    deliver(event) {
      send3(byPlace.candidates(event.scope), (client) => wants(client.subscription, event.type, event.scope) ? event.textFor(client.subscription) : void 0);
    },
    /** Ends the user's streams whose token was revoked (see the bus's `tokensRevoked`). */
    revoke({ userId, generation, sessionGeneration, tokenId }) {
      endWhere([...byUser.get(userId) ?? []], (holder) => generation !== void 0 && holder.generation < generation || sessionGeneration !== void 0 && holder.sessionGeneration !== void 0 && holder.sessionGeneration < sessionGeneration || tokenId !== void 0 && holder.tokenId === tokenId);
    },
    /** The users whose tokens hold streams open now. */
    holders() {
      return [...byUser.keys()];
    },
    /** Ends the streams whose holder `stillValid` no longer accepts. */
    endUnless(stillValid) {
      endWhere([...byUser.values()].flatMap((set) => [...set]), (holder) => !stillValid(holder));
    },
    /** The same text to every stream, whatever it filters (a `reset`). */
    broadcast(text2) {
      send3(clients, () => text2);
    },
    /** The most a stream may have unsent before it is cut off (a resume's replay must fit within it). */
    maxBacklogBytes,
    /** Streams opened since start (open or not now). */
    get opened() {
      return opened;
    },
    /** Streams open now. */
    get count() {
      return clients.size;
    },
    /** The most streams open at once (EVENTS_MAX_STREAMS). */
    maxStreams,
    /** New streams refused for a bound reached, since start. */
    get refused() {
      return refused;
    },
    /** Streams cut off for a backlog over the bound, since start. */
    get cutOff() {
      return cutOff;
    },
    /** Ends every stream (on shutdown): clients reconnect, to another instance if there is one. */
    closeAll() {
      closed = true;
      clearInterval(heartbeat);
      heartbeat = void 0;
      coalescing.flushNow();
      for (const client of [...clients])
        end(client);
    }
  };
}

// dist/events/token-check.js
function streamTokenCheck({ streams, users, deviceTokens, timers, everyMs, log }) {
  let timer;
  let stopped = false;
  async function check() {
    const userIds = streams.holders();
    if (userIds.length === 0)
      return;
    const current = await users.tokenStates(userIds);
    const tokenIds = [];
    streams.endUnless((holder) => {
      if (holder.tokenId !== void 0)
        tokenIds.push(holder.tokenId);
      return true;
    });
    const devices = await deviceTokens.existing(tokenIds);
    streams.endUnless((holder) => {
      const user = current.get(holder.userId);
      return user !== void 0 && user.generation === holder.generation && (holder.sessionGeneration === void 0 || user.sessionGeneration === holder.sessionGeneration) && (holder.tokenId === void 0 || devices.has(holder.tokenId)) && (user.permissions & holder.requires) !== 0;
    });
  }
  function schedule() {
    timer = timers.set(() => {
      check().catch((error) => log.warn({ err: error }, "could not check the tokens of the event streams")).finally(() => {
        if (!stopped)
          schedule();
      });
    }, everyMs);
  }
  return {
    start: schedule,
    stop() {
      stopped = true;
      timers.clear(timer);
    }
  };
}

// dist/events/index.js
var TOKEN_CHECK_MS = 6e4;
var DEFAULT_STREAM_LIMITS = {
  maxBacklogBytes: 1024 * 1024,
  heartbeatMs: 15e3,
  coalesceMs: 15,
  maxStreams: DEFAULT_EVENTS_MAX_STREAMS,
  maxPerClient: DEFAULT_EVENTS_MAX_STREAMS_PER_CLIENT
};
var DEFAULT_RECENT_LIMITS = { maxEvents: 1e4, maxBytes: 16 * 1024 * 1024 };
async function register6(app, deps) {
  const { store, bus, now, config, log } = deps;
  const options = deps.liveEventsOptions ?? {};
  const instance = randomBytes3(4).toString("hex");
  const heartbeatMs = Math.min(DEFAULT_STREAM_LIMITS.heartbeatMs, Math.floor(config.httpIdleTimeoutMs / 2));
  const timers = options.timers ?? systemTimers;
  const bounds = { maxStreams: config.eventsMaxStreams, maxPerClient: config.eventsMaxStreamsPerClient };
  const streams = streamRegistry({ ...DEFAULT_STREAM_LIMITS, heartbeatMs, ...bounds, ...options.streams }, { timers, now });
  const stopRevoking = bus.subscribe("tokensRevoked", (revoked) => streams.revoke(revoked));
  const tokenCheck = streamTokenCheck({
    streams,
    users: store.users,
    deviceTokens: store.deviceTokens,
    timers,
    everyMs: TOKEN_CHECK_MS,
    log
  });
  tokenCheck.start();
  const { inputs, contact } = deps.services.safety;
  const watcher = decisionWatcher({ store, inputs, withLastPolled: contact.withLastPolled, bus, timers, log });
  const [sensors, actuators] = await Promise.all([store.sensors.list(), store.actuators.all()]);
  const feed = eventFeed({
    bus,
    sensors,
    actuators,
    instance,
    recent: { ...DEFAULT_RECENT_LIMITS, ...options.recent },
    deliver: streams.deliver,
    wanted: () => streams.opened > 0
  });
  await watcher.start();
  const relay = store.relay ? postgresRelay({
    channel: store.relay,
    store,
    bus,
    instance,
    log,
    onGap: () => {
      streams.broadcast(feed.resetText());
      inputs.forgetAll();
    }
  }) : void 0;
  await relay?.start();
  app.decorate("liveEvents", { streams });
  eventStreamMetrics(deps.metrics.registry, streams);
  deps.drain.onStart(() => streams.closeAll());
  await app.register(route_default, { store, feed, streams });
  app.addHook("preClose", async () => streams.closeAll());
  app.addHook("onClose", async () => {
    stopRevoking();
    tokenCheck.stop();
    watcher.stop();
    feed.stop();
    await relay?.stop();
  });
  return { streams, watcher };
}

// dist/history/retention.js
init_bucket_sizes();
function retentionCutoffs(policy, now) {
  const raw = policy.rawMs === void 0 ? void 0 : bucketStart(now - policy.rawMs, DAY2);
  let fiveMinute = policy.fiveMinuteMs === void 0 ? void 0 : bucketStart(now - policy.fiveMinuteMs, DAY2);
  if (fiveMinute !== void 0)
    fiveMinute = raw === void 0 ? void 0 : Math.min(fiveMinute, raw);
  return { raw, fiveMinute };
}

// dist/history/retention-job.js
function retentionJob(store, policy, now, log, options = {}) {
  const batchSize = options.batchSize ?? 1e3;
  const intervalMs = options.intervalMs ?? 6e4;
  let timer;
  let running;
  let stopped = false;
  async function retire(what, sensorIds, batch) {
    let total = 0;
    let batches = 0;
    for (const sensorId of sensorIds) {
      for (; ; ) {
        if (stopped)
          return total;
        const n = await batch(sensorId);
        total += n;
        if (++batches % 100 === 0)
          log.info({ what, deleted: total }, "retention: progress");
        await new Promise((resolve4) => setImmediate(resolve4));
        if (n < batchSize)
          break;
      }
    }
    return total;
  }
  async function runOnce() {
    const cutoffs = retentionCutoffs(policy, now());
    if (cutoffs.raw === void 0)
      return { raw: 0, fiveMinute: 0 };
    const { raw, fiveMinute } = cutoffs;
    return store.exclusively("retention", async () => {
      const began = Date.now();
      await store.transaction((tx) => tx.history.retireBefore(raw));
      const sensorIds = (await store.sensors.list()).map((s) => s.sensor_id);
      const totals = {
        raw: await retire("raw", sensorIds, (id) => store.transaction((tx) => tx.history.retireRaw(id, raw, batchSize))),
        fiveMinute: fiveMinute === void 0 ? 0 : await retire("5m", sensorIds, (id) => store.transaction((tx) => tx.history.retireFiveMinute(id, fiveMinute, batchSize)))
      };
      log.info({ ...totals, rawBefore: new Date(raw).toISOString(), ms: Date.now() - began }, "retention: pass done");
      return totals;
    });
  }
  function schedule(delayMs) {
    if (stopped)
      return;
    timer = setTimeout(() => {
      running = runOnce().catch((error) => log.error({ err: error }, "retention: pass failed")).finally(() => {
        running = void 0;
        schedule(intervalMs);
      });
    }, delayMs);
    timer.unref();
  }
  return {
    runOnce,
    start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    }
  };
}

// dist/history/routes.js
init_json_text();
init_schema_common();
init_measurement();
import { Type as Type15 } from "@sinclair/typebox";

// dist/history/docs.js
var MEASUREMENTS = "Measurements";
var historyDocs = {
  aggregate: doc(MEASUREMENTS, "Get Measurement Aggregates", "getMeasurementAggregates", "Per bucket of time: count, min, max, mean, first and last value, ascending, empty buckets left out. Give `bucket` (a duration) or `max_points` (the service picks the size). Buckets are aligned in UTC on multiples of their size since the epoch (hours on the hour, days at UTC midnight) and answered whole: a bucket that overlaps the window is answered with every measurement it holds, and its start and end say which. A window without start (or end) begins (or ends) with the sensor's history. Multiples of 5 minutes, 1 hour or 1 day are folded from the kept buckets (which outlive retired raw rows); other sizes are computed from the raw rows that remain. More than 100,000 buckets: 422. A bucket has a fixed length: months and years (P1M, P1Y) have none and are refused with 422 (give days, e.g. P30D; time_delta still reads them as 30 and 365 days). A bucket longer than the years 1 to 9999, or one whose answered buckets would start before the year 1 or end after the year 9999 (buckets align on multiples of their size since 1970), is refused with 422 too.")
};

// dist/history/schemas.js
init_schema_common();
init_bucket_sizes();
import { Type as Type14 } from "@sinclair/typebox";
var AggregateQuery = Type14.Object({
  bucket: Type14.Optional(Type14.String({
    description: "Bucket size, a duration: 5m, 1h, 1d, ISO 8601 (PT15M, P7D) or seconds (3600). Multiples of 5 minutes, 1 hour or 1 day are folded from the kept buckets of that size; any other size is computed from raw rows. Not with max_points. Months and years (P1M, P1Y) have no fixed length and are refused: give days (P30D).",
    examples: ["1h"]
  })),
  max_points: Type14.Optional(Type14.Integer({
    minimum: 2,
    maximum: MAX_BUCKETS,
    description: "At most this many buckets; the service picks the size. Not with bucket."
  })),
  time_delta: Type14.Optional(Type14.String({
    description: "Duration. Alone: [now - time_delta, now]; with end_time: [end_time - time_delta, end_time). Not with start_time."
  })),
  start_time: Type14.Optional(DateTimeInput("Inclusive start of the window; unset: the start of the sensor\u2019s history.")),
  end_time: Type14.Optional(DateTimeInput("Exclusive end of the window; unset: the end of the sensor\u2019s history."))
});
var AggregateBucket = Type14.Object({
  start: DateTimeOutput(),
  end: DateTimeOutput(),
  count: Type14.Integer(),
  min: Type14.Number(),
  max: Type14.Number(),
  mean: Type14.Number(),
  first: Type14.Number({ description: "The value of the earliest measurement of the bucket." }),
  last: Type14.Number({ description: "The value of the latest measurement of the bucket." })
}, { title: "AggregateBucket" });

// dist/history/routes.js
var historyRoutes = async (app, { services: { history } }) => {
  app.get("/measurements/:sensor_id/aggregate", {
    config: { access: "read" },
    schema: {
      ...historyDocs.aggregate,
      params: SensorIdParams,
      querystring: AggregateQuery,
      response: { 200: Type15.Array(AggregateBucket), ...errorResponses(404, 422) }
    },
    // A year of hourly buckets is 8,760 of them: written straight as JSON text in the documented shape.
    handler: async (request, reply) => sendJsonText(reply, await history.aggregateJson(request.params.sensor_id, request.query))
  });
};
var routes_default4 = historyRoutes;

// dist/history/index.js
async function register7(app, deps) {
  await app.register(routes_default4, deps);
  const { config, store, now, log } = deps;
  if (config.retentionRawMs === void 0)
    return;
  const retention2 = retentionJob(store, { rawMs: config.retentionRawMs, fiveMinuteMs: config.retentionFiveMinuteMs }, now, log);
  app.addHook("onReady", async () => retention2.start());
  app.addHook("preClose", async () => retention2.stop());
}

// dist/http/docs.js
init_schema_common();
import swagger from "@fastify/swagger";
var TAGS = [
  { name: "Measurements", description: "Record, read, export and generate measurements." },
  { name: "Actuators", description: "Pumps driven by a sensor, and the state their controllers poll." },
  { name: "Sensors", description: "Sensors of a prototype and their thresholds." },
  { name: "Prototypes", description: "Grow prototypes (a tank, a greenhouse)." },
  { name: "Users, tokens and picture", description: "OAuth2 password flow, user tokens, and the camera picture." },
  { name: "Timelapse", description: "Frames from the camera on a schedule, assembled into an MP4 video by ffmpeg." },
  { name: "Operations", description: "Health and documentation." }
];
async function registerDocs(app) {
  app.addSchema(ErrorBody);
  app.addSchema(ValidationErrorBody);
  app.addSchema(RemovalRefusedBody);
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "sensorhub",
        version: "0.1.0",
        description: 'HTTP service for sensor and actuator systems. Errors are `{"detail": \u2026}`; validation errors (422) list every problem with its `loc`. Integer fields accept numeric strings. Paths work with and without a trailing slash.\n\nLimits on every request (422 beyond them, and nothing is written): every number is finite (`1e400` overflows to infinity and is refused); a numeric string is at most 64 characters; no string holds the NUL character (`\\u0000`); every date-time, and both edges of a window, lie within the years 1 to 9999 (UTC), and a duration is no longer than that span; `max_points` is at most 100,000; an id in the path is ASCII digits only (` 1`, `+1`, `1%0A` are refused). Errors raised before a route runs answer `{"detail": \u2026}` too: 400 for a malformed URL or request, 414 for a path parameter over 200 characters, 431 for headers (the URL included) over the size limit.'
      },
      tags: TAGS,
      components: {
        securitySchemes: {
          OAuth2PasswordBearer: { type: "oauth2", flows: { password: { tokenUrl: "token", scopes: {} } } }
        }
      }
    },
    refResolver: { buildLocalReference: (json3, _baseUri, _fragment, i) => String(json3.$id ?? `def-${i}`) }
  });
  app.get("/openapi.json", { schema: { hide: true }, config: { access: "public" } }, () => app.swagger());
  registerSwaggerUi(app);
}
var OWN_HEADERS = /* @__PURE__ */ new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "date"]);
function registerSwaggerUi(app) {
  let ui;
  const forward = async (request, reply) => {
    ui ??= swaggerUiApp(app.swagger());
    const answer = await (await ui).inject({ method: "GET", url: request.url, headers: request.headers });
    if (answer.statusCode === 404)
      return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!OWN_HEADERS.has(name) && value !== void 0)
        reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  const options = { schema: { hide: true }, config: { access: "public" }, onRequest: docsHeaders };
  app.get("/docs", options, forward);
  app.get("/docs/*", options, forward);
}
async function swaggerUiApp(document) {
  const [{ default: Fastify2 }, { default: swaggerUi }] = await Promise.all([import("fastify"), import("@fastify/swagger-ui")]);
  const ui = Fastify2({ routerOptions: { ignoreTrailingSlash: true } });
  await ui.register(swagger, { mode: "static", specification: { document } });
  await ui.register(swaggerUi, { routePrefix: "/docs" });
  await ui.ready();
  return ui;
}

// dist/app.js
init_errors2();

// dist/http/hot-reads.js
init_schema_common();
init_json_text();
var LAST = /^\/measurements\/(\d{1,10})\/last\/?$/;
var STATE = /^\/actuators\/(\d{1,10})\/state\/?$/;
var JSON_TYPE2 = "application/json; charset=utf-8";
var headerList = (headers) => Object.entries(headers).flat();
var isPromise2 = (value) => typeof value?.then === "function";
function hotReads(options) {
  const { polled, actuatorState, active, log, observe } = options;
  const cors2 = {
    ...options.headers,
    "access-control-allow-origin": "*",
    "access-control-expose-headers": options.exposedHeaders.join(", ")
  };
  const lastHeaders = headerList({ ...cors2, "content-type": JSON_TYPE2 });
  const stateHeaders = headerList({ ...cors2, "cache-control": "no-store", "content-type": JSON_TYPE2 });
  const then = (value, f) => isPromise2(value) ? value.then(f) : f(value);
  const lastBody = (sensorId) => then(polled.lastMeasurement(sensorId), (m) => m && measurementJson(m));
  const stateBody = (actuatorId) => then(actuatorState(actuatorId), (state) => state?.json);
  return function hotRead(req, res, next) {
    const url = req.url ?? "";
    if (req.method !== "GET" || url.length > 40 || !active())
      return next(req, res);
    const last = LAST.exec(url);
    const state = last ? null : STATE.exec(url);
    const id = Number((last ?? state)?.[1]);
    if (!(id <= MAX_ID))
      return next(req, res);
    const started = performance.now();
    const headers = last ? lastHeaders : stateHeaders;
    const finish = (body2) => {
      if (body2 === void 0)
        return next(req, res);
      res.writeHead(200, [...headers, "content-length", Buffer.byteLength(body2)]);
      res.end(body2);
      const elapsed = performance.now() - started;
      (last ? observe.last : observe.state)(elapsed / 1e3);
      if (log)
        log.logger.info({ reqId: log.nextRequestId(), method: req.method, url, status: 200, ms: Math.round(elapsed * 100) / 100 }, "request");
    };
    const fallBack = () => {
      if (!res.headersSent)
        next(req, res);
    };
    let body;
    try {
      body = last ? lastBody(id) : stateBody(id);
    } catch {
      return fallBack();
    }
    if (isPromise2(body))
      body.then(finish, fallBack);
    else
      finish(body);
  };
}

// dist/http/metrics.js
import { collectDefaultMetrics, Counter as Counter2, Gauge as Gauge2, Histogram, Registry } from "prom-client";

// dist/http/request-metrics.js
var escapeLabel = (value) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
function requestSeries(counter, histogram) {
  const bounds = histogram.buckets;
  const all = [];
  const byRoute = /* @__PURE__ */ new Map();
  function observer(method, route, status) {
    let byStatus = byRoute.get(route);
    if (!byStatus)
      byRoute.set(route, byStatus = /* @__PURE__ */ new Map());
    let byMethod = byStatus.get(status);
    if (!byMethod)
      byStatus.set(status, byMethod = /* @__PURE__ */ new Map());
    let observe = byMethod.get(method);
    if (!observe) {
      const series = {
        labels: `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`,
        count: 0,
        sum: 0,
        perBucket: new Float64Array(bounds.length + 1)
      };
      all.push(series);
      observe = (seconds2) => {
        series.count += 1;
        series.sum += seconds2;
        let i = 0;
        while (i < bounds.length && seconds2 > bounds[i])
          i++;
        series.perBucket[i] += 1;
      };
      byMethod.set(method, observe);
    }
    return observe;
  }
  function text2() {
    const lines = [`# HELP ${counter.name} ${counter.help}`, `# TYPE ${counter.name} counter`];
    for (const s of all)
      lines.push(`${counter.name}{${s.labels}} ${s.count}`);
    lines.push(`# HELP ${histogram.name} ${histogram.help}`, `# TYPE ${histogram.name} histogram`);
    for (const s of all) {
      let cumulative = 0;
      bounds.forEach((bound, i) => {
        cumulative += s.perBucket[i];
        lines.push(`${histogram.name}_bucket{le="${bound}",${s.labels}} ${cumulative}`);
      });
      lines.push(`${histogram.name}_bucket{le="+Inf",${s.labels}} ${s.count}`);
      lines.push(`${histogram.name}_sum{${s.labels}} ${s.sum}`);
      lines.push(`${histogram.name}_count{${s.labels}} ${s.count}`);
    }
    return `${lines.join("\n")}
`;
  }
  return { observer, text: text2 };
}

// dist/http/metrics.js
var UNMATCHED_ROUTE = "unmatched";
var LATENCY_BUCKETS = [5e-4, 1e-3, 25e-4, 5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
var SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096, 1e4, 5e4];
function createMetrics(options = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = requestSeries({ name: "sensorhub_http_requests_total", help: "HTTP requests answered, by method, route pattern and status." }, {
    name: "sensorhub_http_request_duration_seconds",
    help: "Time from the request to its answer, by method, route pattern and status.",
    buckets: LATENCY_BUCKETS
  });
  const ingested = new Counter2({
    name: "sensorhub_measurements_ingested_total",
    help: "Measurements recorded through POST /measurements (committed).",
    registers: [registry]
  });
  const commitRequests = new Histogram({
    name: "sensorhub_group_commit_requests",
    help: "Ingest requests that shared one commit (group commit).",
    buckets: SIZE_BUCKETS,
    registers: [registry]
  });
  const commitRows = new Histogram({
    name: "sensorhub_group_commit_rows",
    help: "Measurements written by one commit of the group commit.",
    buckets: SIZE_BUCKETS,
    registers: [registry]
  });
  const { poolUse } = options;
  if (poolUse) {
    const gauge = (name, help, read) => new Gauge2({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(poolUse()));
      }
    });
    gauge("sensorhub_db_pool_connections", "PostgreSQL connections open in this process.", (u) => u.total);
    gauge("sensorhub_db_pool_idle_connections", "PostgreSQL connections open and idle.", (u) => u.idle);
    gauge("sensorhub_db_pool_waiting_requests", "Queries waiting for a PostgreSQL connection.", (u) => u.waiting);
  }
  return {
    registry,
    /** An observer for one (method, route, status): bind it once where the same labels recur. */
    observer: requests.observer,
    /** Records a request answered by a route (or by none: `route` undefined). */
    request(method, route, status, seconds2) {
      requests.observer(method, route ?? UNMATCHED_ROUTE, status)(seconds2);
    },
    /** Everything, in the Prometheus text format. */
    async text() {
      return await registry.metrics() + requests.text();
    },
    ingested(rows) {
      ingested.inc(rows);
    },
    groupCommit(requests2, rows) {
      commitRequests.observe(requests2);
      commitRows.observe(rows);
    }
  };
}

// dist/app.js
init_validation();

// dist/http-server.js
import { createServer } from "node:http";
var KEEP_ALIVE_TIMEOUT_MS = 72e3;
function httpServer(config, listener) {
  const server = createServer({
    headersTimeout: config.httpHeadersTimeoutMs,
    requestTimeout: config.httpRequestTimeoutMs,
    // How often the two request limits are checked: often enough that they hold to within a fraction.
    connectionsCheckingInterval: Math.max(50, Math.min(1e3, Math.floor(config.httpHeadersTimeoutMs / 4)))
  }, listener);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = config.httpMaxConnections;
  server.setTimeout(config.httpIdleTimeoutMs);
  return server;
}

// dist/measurements/routes.js
init_date_time();
init_json_text();
init_schema_common();
init_measurement();
import { Readable } from "node:stream";
import { Type as Type16 } from "@sinclair/typebox";

// dist/measurements/docs.js
var MEASUREMENTS2 = "Measurements";
var measurementDocs = {
  post: doc(MEASUREMENTS2, "Post Measurement", "postMeasurement", "Records one measurement, or a batch (array of up to 10,000, all or nothing). `sensor_id` may be a numeric string. A timestamp without an offset is UTC; more than 5 minutes in the future is refused (422). Timestamps keep millisecond precision."),
  export: doc(MEASUREMENTS2, "Export All Sensors To Csv", "exportAllSensorsToCsv", "CSV (RFC 4180, CRLF line ends) of every measurement, ordered by sensor id then timestamp, streamed as it is read. Filters: sensor_id (repeatable), prototype_id, start_time, end_time ([start, end)); unknown sensor or prototype ids select nothing (the header alone). Values are written as the shortest text that reads back as the same double; timestamps as ISO 8601 UTC with milliseconds and Z. It is read in short pages (by sensor, then timestamp and id), not as one long query: a slow download holds no database connection or snapshot, and no statement time limit can cut a long export short; measurements recorded while it runs may or may not appear in it."),
  window: doc(MEASUREMENTS2, "Get Measurement", "getMeasurement", "The measurements of a sensor in a window, ascending by timestamp (ties by id). Without a window, all of them. With max_points, at most that many points, each a real stored measurement. When the history buckets read fewer rows than the raw rows, the window is cut into at most max_points/2 buckets aligned in UTC (a multiple of the coarsest kept size, 5 minutes, 1 hour or 1 day, that still gives that many) and each keeps its lowest and highest measurement; the two partial buckets at the edges come from raw rows. Otherwise the window is cut into max_points/2 equal spans of time, each keeping its lowest and highest measurement, computed in the store. After raw rows were retired (RETENTION_RAW) the points of their buckets still name the measurements they were. A long window is streamed as it is read."),
  last: doc(MEASUREMENTS2, "Get Last Measurement", "getLastMeasurement", "The newest measurement by timestamp (ties: the highest id). 404 for an unknown sensor or one without measurements."),
  remove: doc(MEASUREMENTS2, "Delete Measurement", "deleteMeasurement", "Deletes one measurement by its measurement_id. 204 without a body; 404 when it does not exist. Deleting a sensor's newest measurement makes the one before it the newest (last, actuator state)."),
  random: doc(MEASUREMENTS2, "Post Random Measurements", "postRandomMeasurements", "Fills the store with synthetic data, shared equally among all sensors (nb_measurements rounded up to a multiple of the sensor count). What the three ratios leave over goes to the last year. With replace (default), existing measurements are deleted in the same transaction. An empty body takes every default.")
};

// dist/measurements/routes.js
var toMeasurement = (m) => ({
  measurement_id: m.measurement_id,
  sensor_id: m.sensor_id,
  value: m.value,
  timestamp: isoOf(m.timestamp)
});
var measurementRoutes = async (app, { services: { measurements } }) => {
  app.post("/measurements", {
    config: { access: "post_measurements" },
    schema: {
      ...measurementDocs.post,
      body: MeasurementBody,
      response: { 200: Type16.Union([Measurement, Type16.Array(Measurement)]), ...errorResponses(404, 422) }
    },
    handler: async (request, reply) => {
      const batch = Array.isArray(request.body);
      const stored = await measurements.record(batch ? request.body : [request.body], batch);
      return sendJsonText(reply, batch ? measurementArrayJson(stored) : measurementJson(stored[0]));
    }
  });
  app.get("/measurements/export", {
    config: { access: "read" },
    schema: { ...measurementDocs.export, querystring: ExportQuery, produces: ["text/csv"], response: errorResponses(422) },
    handler: async (request, reply) => {
      const lines = await measurements.exportCsv(request.query);
      return reply.type("text/csv; charset=utf-8").header("Content-Disposition", 'attachment; filename="all_sensors_measurements.csv"').send(Readable.from(lines, { objectMode: false }));
    }
  });
  app.get("/measurements/:sensor_id", {
    config: { access: "read" },
    schema: {
      ...measurementDocs.window,
      params: SensorIdParams,
      querystring: WindowQuery,
      response: { 200: Type16.Array(Measurement), ...errorResponses(404, 422) }
    },
    handler: async (request, reply) => {
      const answer = await measurements.window(request.params.sensor_id, request.query);
      if ("rows" in answer)
        return answer.rows.map(toMeasurement);
      return sendJsonText(reply, Readable.from(jsonArray(answer.pages)));
    }
  });
  app.get("/measurements/:sensor_id/last", {
    config: { access: "read" },
    schema: { ...measurementDocs.last, params: SensorIdParams, response: { 200: Measurement, ...errorResponses(404, 422) } },
    handler: async (request) => toMeasurement(await measurements.last(request.params.sensor_id))
  });
  app.post("/Measurement/Random", {
    config: { access: "modify" },
    schema: { ...measurementDocs.random, body: RandomMeasurements, response: { 200: RandomResult, ...errorResponses(422) } },
    preValidation: async (request) => {
      if (request.body === void 0 || request.body === null)
        request.body = {};
    },
    handler: async (request) => {
      const { generated, deleted, sensors } = await measurements.generate(request.body);
      return { message: `Generated ${generated} measurements for ${sensors} sensors`, generated, deleted };
    }
  });
  app.delete("/measurements/:measurement_id", {
    config: { access: "modify" },
    schema: { ...measurementDocs.remove, params: MeasurementIdParams, response: { 204: Deleted, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      await measurements.remove(request.params.measurement_id);
      return reply.code(204).send();
    }
  });
};
var routes_default5 = measurementRoutes;

// dist/measurements/index.js
async function register8(app, deps) {
  await app.register(routes_default5, deps);
}

// dist/mqtt/index.js
init_sharing();
async function register9(app, { config, store, services, bus, now, metrics }) {
  if (!config.mqtt)
    return void 0;
  const { mqttBridge: mqttBridge2 } = await Promise.resolve().then(() => (init_bridge(), bridge_exports));
  const log = app.log.child({ component: "mqtt" });
  const bridge = mqttBridge2({ settings: config.mqtt, store, services, bus, now, log, registry: metrics.registry });
  app.addHook("onReady", async () => bridge.start());
  app.addHook("preClose", async () => bridge.close());
  return bridge;
}

// dist/ops/metrics-route.js
init_schema_common();
import { Type as Type17 } from "@sinclair/typebox";
var metricsRoutes = async (app, { metrics }) => {
  app.get("/metrics", {
    config: { access: "admin" },
    schema: {
      tags: ["Operations"],
      summary: "Metrics",
      operationId: "metrics",
      description: "Prometheus text format: requests by method, route pattern (`/measurements/:sensor_id`; every unknown path as `unmatched`) and status with latency histograms, measurements ingested, requests and rows per group commit, open event streams, PostgreSQL pool use, and the process metrics (CPU, memory, event loop lag, GC). Open in AUTH_MODE=open; needs the admin permission (8) in AUTH_MODE=enforced.",
      produces: ["text/plain"],
      response: { 200: Type17.String({ description: "Prometheus exposition format 0.0.4" }), ...errorResponses(401, 403) }
    },
    handler: async (_request, reply) => {
      const text2 = await metrics.text();
      return reply.type(metrics.registry.contentType).send(text2);
    }
  });
};
var metrics_route_default = metricsRoutes;

// dist/ops/routes.js
init_sharing();
import { Type as Type18 } from "@sinclair/typebox";

// dist/picture/health.js
var PICTURE_HEALTH = ["ok", "failing", "stuck", "unknown", "none"];

// dist/ops/docs.js
var opsDocs = {
  health: doc("Operations", "Health", "health", "200 when the store answers `select 1` within a second, 503 (within that second) when it does not. `picture` tells the state of PICTURE_SOURCE: `ok` or `failing` by its last capture, `unknown` before the first, `stuck` while a file capture has run past PICTURE_TIMEOUT_MS without returning (a hung mount; file captures wait until it returns), `none` without a source (uploads are served). A failing camera does not make the service unhealthy: the status code follows the store only, so a load balancer keeps sending traffic to an instance whose camera is down. With MQTT_URL set, `mqtt` tells the link to the broker: `connected`, `connecting` (the first attempt, or again after a loss, with backoff) or `disconnected` (waiting for the next attempt); a broker that is away does not make the service unhealthy either.")
};

// dist/ops/routes.js
var PictureState = Type18.Union(PICTURE_HEALTH.map((state) => Type18.Literal(state)));
var MqttState = Type18.Optional(Type18.Union(LINK_STATES.map((state) => Type18.Literal(state))));
var Backup = Type18.Union([
  Type18.Object({
    at: Type18.Union([Type18.String({ format: "date-time" }), Type18.Null()], { description: "When the newest good backup was made." }),
    bytes: Type18.Union([Type18.Integer(), Type18.Null()]),
    ok: Type18.Boolean({ description: "False after a failed backup or while one is overdue (the backup alert is active)." })
  }),
  Type18.Null()
], { description: "The newest good backup; null when backups are off (BACKUP_DIR unset) or none was made yet." });
var opsRoutes = async (app, { store, services: { pictures }, mqttState, backupStatus }) => {
  app.get("/healthz", {
    config: { access: "public" },
    schema: {
      ...opsDocs.health,
      response: {
        200: Type18.Object({ status: Type18.Literal("ok"), picture: PictureState, mqtt: MqttState, backup: Backup }),
        503: Type18.Object({ status: Type18.String(), detail: Type18.String(), picture: PictureState, mqtt: MqttState, backup: Backup })
      }
    },
    handler: async (_request, reply) => {
      const picture = pictures.health();
      const mqtt2 = mqttState?.();
      const backup = backupStatus?.() ?? null;
      if (await store.ping())
        return { status: "ok", picture, mqtt: mqtt2, backup };
      return reply.code(503).send({ status: "unavailable", detail: "Database unavailable", picture, mqtt: mqtt2, backup });
    }
  });
};
var routes_default6 = opsRoutes;

// dist/ops/index.js
async function register10(app, deps) {
  const { store, metrics } = deps;
  store.instruments.ingested = metrics.ingested;
  store.instruments.groupCommitted = metrics.groupCommit;
  await app.register(routes_default6, deps);
  await app.register(metrics_route_default, { metrics });
}

// dist/backup/index.js
import { Counter as Counter4, Gauge as Gauge4 } from "prom-client";

// dist/alerts/service-alerts.js
function serviceAlerts({ store, bus, now, webhookUrls: webhookUrls2 }) {
  const record = async (change) => {
    const at = now();
    const news = await change(at);
    if (news)
      bus.publish("alert", news);
    return news?.alert;
  };
  return {
    /** Raises an alert of `kind` unless one is active already; the alert raised, or undefined. */
    raise(kind, severity) {
      return record(async (at) => {
        try {
          return await store.transaction(async (tx) => {
            if (await tx.alerts.activeOfService(kind))
              return void 0;
            const row = await tx.alerts.raise({
              sensor_id: null,
              actuator_id: null,
              kind,
              severity,
              raised_at: at,
              value: null,
              peak: null
            });
            const news = { event: "raised", alert: alertOf(row, null) };
            await enqueueNotifications(tx.alerts, webhookUrls2, [news], at);
            return news;
          });
        } catch (error) {
          if (await store.alerts.activeOfService(kind))
            return void 0;
          throw error;
        }
      });
    },
    /** Clears the active alert of `kind`, if any; the alert cleared, or undefined. */
    clear(kind) {
      return record((at) => store.transaction(async (tx) => {
        const active = await tx.alerts.activeOfService(kind);
        if (!active)
          return void 0;
        const row = await tx.alerts.change(active.alert_id, { state: "cleared", cleared_at: at });
        const news = { event: "cleared", alert: alertOf(row, null) };
        await enqueueNotifications(tx.alerts, webhookUrls2, [news], at);
        return news;
      }));
    },
    /** Whether an alert of `kind` is active now. */
    async active(kind) {
      return await store.alerts.activeOfService(kind) !== void 0;
    }
  };
}

// dist/backup/folder.js
import { mkdirSync as mkdirSync2, readdirSync, rmSync as rmSync2, statSync as statSync2 } from "node:fs";
import { join } from "node:path";

// dist/backup/names.js
var GOOD = /^sensorhub-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/;
var PARTIAL = /^\.sensorhub-.*\.partial(-wal|-shm|-journal|\.lock)?$/;
function stampOf(ms) {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
}
function backupName(ms) {
  return `sensorhub-${stampOf(ms)}.db`;
}
function partialName(ms, pid) {
  return `.sensorhub-${stampOf(ms)}-${pid}.db.partial`;
}
function timeOfBackup(name) {
  const match = GOOD.exec(name);
  if (!match)
    return void 0;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return Number.isNaN(ms) ? void 0 : ms;
}
var isPartial = (name) => PARTIAL.test(name);
function beyondKeep(names, keep) {
  const good = names.filter((name) => timeOfBackup(name) !== void 0).sort();
  return good.slice(0, Math.max(0, good.length - keep));
}
var OVERDUE_GRACE_MS = 36e5;
function nextBackupAt(newestGoodAt, lastAttemptAt, startedAt, everyMs, soonMs) {
  const after = [newestGoodAt, lastAttemptAt].filter((t) => t !== void 0);
  if (after.length === 0)
    return startedAt + soonMs;
  return Math.max(startedAt + soonMs, Math.max(...after) + everyMs);
}
function isOverdue(newestGoodAt, startedAt, now, everyMs) {
  return now - (newestGoodAt ?? startedAt) > everyMs + OVERDUE_GRACE_MS;
}

// dist/backup/folder.js
function ensureFolder(dir) {
  mkdirSync2(dir, { recursive: true, mode: 448 });
}
function goodBackups(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const at = timeOfBackup(name);
    if (at === void 0)
      return [];
    try {
      return [{ file: join(dir, name), at, bytes: statSync2(join(dir, name)).size }];
    } catch {
      return [];
    }
  }).sort((a, b) => b.at - a.at);
}
function removePartials(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const stale = names.filter(isPartial);
  for (const name of stale)
    rmSync2(join(dir, name), { force: true });
  return stale;
}
function prune(dir, keep) {
  const doomed = beyondKeep(readdirSync(dir), keep);
  for (const name of doomed)
    rmSync2(join(dir, name), { force: true });
  return doomed;
}

// dist/backup/make.js
init_store();
import { renameSync, rmSync as rmSync3, statSync as statSync3 } from "node:fs";
import { dirname as dirname2, join as join2 } from "node:path";
var BackupCheckFailed = class extends Error {
  problems;
  constructor(problems) {
    super(`the copy failed its check: ${problems.join("; ")}`);
    this.problems = problems;
    this.name = "BackupCheckFailed";
  }
};
async function makeBackup(store, target, now, progress) {
  const file = "file" in target ? target.file : join2(target.dir, backupName(now));
  const dir = dirname2(file);
  ensureFolder(dir);
  const partial = join2(dir, partialName(now, process.pid));
  try {
    const counts = await store.backupTo(partial, progress);
    const check = await checkSqliteCopy(partial, counts);
    if (!check.ok)
      throw new BackupCheckFailed(check.problems);
    fsyncPath(partial);
    renameSync(partial, file);
    fsyncPath(dir);
    return { file, at: now, bytes: statSync3(file).size, counts: check.counts };
  } finally {
    for (const suffix of ["", "-wal", "-shm", "-journal"])
      rmSync3(partial + suffix, { force: true });
  }
}

// dist/backup/index.js
var PROGRESS_LOG_MS = 1e3;
async function register11(app, deps) {
  const { config, store, bus, now } = deps;
  const { registry } = deps.metrics;
  const options = deps.backupOptions ?? {};
  const dir = config.backupDir;
  if (dir === void 0)
    return void 0;
  const log = app.log.child({ backup_dir: dir });
  const timers = options.timers ?? systemTimers;
  const soonMs = options.soonMs ?? 2e3;
  const alerts = serviceAlerts({ store, bus, now, webhookUrls: config.alertWebhookUrls });
  const failures = new Counter4({
    name: "sensorhub_backup_failures_total",
    help: "Backups that failed (written or checked), since start.",
    registers: [registry]
  });
  const state = {
    startedAt: now(),
    newest: void 0,
    lastAttemptAt: void 0,
    lastFailed: false,
    running: void 0,
    timer: void 0,
    stopped: false
  };
  new Gauge4({
    name: "sensorhub_backup_last_success_timestamp_seconds",
    help: "When the newest good backup was made (Unix seconds; 0: none).",
    registers: [registry],
    collect() {
      this.set(state.newest ? state.newest.at / 1e3 : 0);
    }
  });
  new Gauge4({
    name: "sensorhub_backup_last_success_bytes",
    help: "The size of the newest good backup (0: none).",
    registers: [registry],
    collect() {
      this.set(state.newest?.bytes ?? 0);
    }
  });
  const overdue = () => isOverdue(state.newest?.at, state.startedAt, now(), config.backupEveryMs);
  async function attempt() {
    const at = now();
    state.lastAttemptAt = at;
    let lastProgress = 0;
    const started = Date.now();
    log.info({ store: store.kind }, "backup started");
    try {
      const made = await store.exclusively("backup", () => makeBackup(store, { dir }, at, ({ part, copied, total }) => {
        if (lastProgress !== 0 && Date.now() - lastProgress < PROGRESS_LOG_MS)
          return;
        lastProgress = Date.now();
        log.info({ part, copied, total }, "backup progress");
      }));
      if (!made) {
        log.info("backup skipped: another instance is making one");
        return;
      }
      state.newest = { file: made.file, at: made.at, bytes: made.bytes };
      state.lastFailed = false;
      log.info({ file: made.file, bytes: made.bytes, rows: made.counts, ms: Date.now() - started }, "backup written and checked");
      const removed = prune(dir, config.backupKeep);
      if (removed.length > 0)
        log.info({ removed, keep: config.backupKeep }, "old backups removed");
      await alerts.clear("backup");
    } catch (error) {
      state.lastFailed = true;
      failures.inc();
      log.error({ err: error }, "backup failed");
      await alerts.raise("backup", "critical");
    }
  }
  async function tick() {
    state.timer = void 0;
    try {
      state.newest = goodBackups(dir)[0] ?? state.newest;
      const dueAt = nextBackupAt(state.newest?.at, state.lastAttemptAt, state.startedAt, config.backupEveryMs, soonMs);
      if (now() >= dueAt)
        await attempt();
      if (overdue()) {
        const raised = await alerts.raise("backup", "critical");
        if (raised)
          log.error({ newest: state.newest?.file ?? null }, "backup overdue");
      }
    } catch (error) {
      log.error({ err: error }, "backup check failed");
    }
    schedule();
  }
  function schedule() {
    if (state.stopped)
      return;
    const dueAt = nextBackupAt(state.newest?.at, state.lastAttemptAt, state.startedAt, config.backupEveryMs, soonMs);
    const overdueAt = (state.newest?.at ?? state.startedAt) + config.backupEveryMs + OVERDUE_GRACE_MS + 1;
    const wakeAt = overdue() ? dueAt : Math.min(dueAt, overdueAt);
    state.timer = timers.set(() => {
      state.running = tick();
    }, wakeAt - now());
  }
  app.addHook("onReady", async () => {
    const stale = removePartials(dir);
    if (stale.length > 0)
      log.warn({ removed: stale }, "removed what an interrupted backup left");
    state.newest = goodBackups(dir)[0];
    schedule();
  });
  app.addHook("preClose", async () => {
    state.stopped = true;
    if (state.timer !== void 0)
      timers.clear(state.timer);
    await state.running;
  });
  return {
    status() {
      const ok = !state.lastFailed && !overdue();
      if (!state.newest)
        return state.lastFailed ? { at: null, bytes: null, ok } : null;
      return { at: new Date(state.newest.at).toISOString(), bytes: state.newest.bytes, ok };
    }
  };
}

// dist/picture/routes.js
init_errors2();
import { Type as Type19 } from "@sinclair/typebox";

// dist/picture/image-type.js
var IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"];
function detectImageType(bytes) {
  if (bytes.length >= 3 && bytes[0] === 255 && bytes[1] === 216 && bytes[2] === 255)
    return "image/jpeg";
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b))
    return "image/png";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP")
    return "image/webp";
  return void 0;
}
function inspectImage(bytes) {
  const type = detectImageType(bytes);
  if (!type)
    return { ok: false, problem: "not a JPEG, PNG or WebP image" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = type === "image/jpeg" ? jpegSize(bytes, view) : type === "image/png" ? pngSize(bytes, view) : webpSize(bytes, view);
  if (typeof found === "string")
    return { ok: false, problem: found };
  return { ok: true, image: { type, ...found } };
}
var PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
var PNG_IEND = [0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130];
function ascii(bytes, start, length) {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
var sized = (width, height, what) => width > 0 && height > 0 ? { width, height } : `${what} gives no dimensions`;
var isFrameHeader = (marker) => marker >= 192 && marker <= 207 && marker !== 196 && marker !== 200 && marker !== 204;
function jpegSize(bytes, view) {
  const end = bytes.length;
  if (end < 4 || bytes[end - 2] !== 255 || bytes[end - 1] !== 217)
    return "JPEG without its end marker (incomplete)";
  let at = 2;
  while (at + 4 <= end) {
    if (bytes[at] !== 255)
      return "JPEG with a malformed segment";
    const marker = bytes[at + 1];
    if (marker === 255) {
      at += 1;
      continue;
    }
    if (marker === 1 || marker >= 208 && marker <= 215) {
      at += 2;
      continue;
    }
    if (marker === 217 || marker === 218)
      break;
    const length = view.getUint16(at + 2);
    if (length < 2 || at + 2 + length > end)
      return "JPEG with a truncated segment";
    if (isFrameHeader(marker)) {
      if (length < 7)
        return "JPEG with a truncated frame header";
      return sized(view.getUint16(at + 7), view.getUint16(at + 5), "JPEG frame header");
    }
    at += 2 + length;
  }
  return "JPEG without a frame header (SOF)";
}
function pngSize(bytes, view) {
  const end = bytes.length;
  if (end < 8 + 25 + PNG_IEND.length)
    return "PNG too short to hold its header and end";
  if (view.getUint32(8) !== 13 || ascii(bytes, 12, 4) !== "IHDR")
    return "PNG without an IHDR header";
  if (!PNG_IEND.every((b, i) => bytes[end - PNG_IEND.length + i] === b))
    return "PNG without its IEND chunk (incomplete)";
  return sized(view.getUint32(16), view.getUint32(20), "PNG header");
}
function webpSize(bytes, view) {
  const end = bytes.length;
  if (view.getUint32(4, true) + 8 !== end)
    return "WebP whose RIFF length does not match the file (incomplete)";
  let size;
  let hasImage = false;
  let at = 12;
  while (at < end) {
    if (at + 8 > end)
      return "WebP with a truncated chunk header";
    const fourcc = ascii(bytes, at, 4);
    const length = view.getUint32(at + 4, true);
    const data = at + 8;
    if (data + length > end)
      return `WebP with a truncated ${fourcc.trim()} chunk`;
    if (fourcc === "VP8X" && at === 12) {
      if (length < 10)
        return "WebP with a truncated VP8X header";
      size = sized(1 + (view.getUint32(data + 4, true) & 16777215), 1 + (view.getUint32(data + 6, true) >>> 8), "WebP VP8X header");
    } else if (fourcc === "VP8 ") {
      hasImage = true;
      if (length < 10 || bytes[data + 3] !== 157 || bytes[data + 4] !== 1 || bytes[data + 5] !== 42)
        return "WebP with a malformed VP8 frame";
      size ??= sized(view.getUint16(data + 6, true) & 16383, view.getUint16(data + 8, true) & 16383, "WebP VP8 frame");
    } else if (fourcc === "VP8L") {
      hasImage = true;
      if (length < 5 || bytes[data] !== 47)
        return "WebP with a malformed VP8L frame";
      const bits = view.getUint32(data + 1, true);
      size ??= sized((bits & 16383) + 1, (bits >>> 14 & 16383) + 1, "WebP VP8L frame");
    } else if (fourcc === "ANMF") {
      hasImage = true;
    }
    at = data + length + length % 2;
  }
  if (!hasImage || !size)
    return "WebP without an image frame";
  return size;
}

// dist/picture/sources.js
import { spawn } from "node:child_process";
import { stat as stat2 } from "node:fs/promises";

// dist/picture/errors.js
var CameraUnavailable = class extends Error {
};
var MAX_PICTURE_BYTES = 10 * 1024 * 1024;
var reason = (error) => error instanceof Error ? error.message : String(error);

// dist/picture/file-gate.js
var FileGate = class {
  clock;
  running;
  constructor(clock = Date.now) {
    this.clock = clock;
  }
  /**
   * Runs `work` once the gate is free, answering within `timeoutMs` in all cases: waiting for an
   * earlier capture counts against the limit, and one that is still not done by then is a failure
   * (the work is then never started). Work that runs over keeps the gate until it returns.
   */
  async run(work, timeoutMs, what) {
    const deadline = this.clock() + timeoutMs;
    while (this.running) {
      const left = deadline - this.clock();
      if (left <= 0 || !await settlesWithin(this.running.settled, left)) {
        throw new CameraUnavailable(`${what}: an earlier file read has not returned`);
      }
    }
    const result = work();
    const entry2 = { settled: result.then(noop, noop), startedAt: this.clock(), limitMs: timeoutMs, overdue: false };
    this.running = entry2;
    void entry2.settled.then(() => {
      if (this.running === entry2)
        this.running = void 0;
    });
    if (!await settlesWithin(entry2.settled, deadline - this.clock())) {
      entry2.overdue = true;
      throw new CameraUnavailable(`${what}: not read within ${timeoutMs} ms`);
    }
    return result;
  }
  /** A capture has run past its time limit and still not returned (a hung mount, a blocked device). */
  stuck() {
    const running = this.running;
    return running !== void 0 && (running.overdue || this.clock() - running.startedAt > running.limitMs);
  }
};
var noop = () => {
};
function settlesWithin(settled, ms) {
  let timer;
  const late = new Promise((resolve4) => {
    timer = setTimeout(() => resolve4(false), Math.max(0, ms));
  });
  return Promise.race([settled.then(() => true), late]).finally(() => clearTimeout(timer));
}
var fileGate = new FileGate();

// dist/picture/file-read.js
import { constants } from "node:fs";
import { open } from "node:fs/promises";
var READ = constants.O_RDONLY | constants.O_NONBLOCK;
async function readRegularFile(path, checked, options) {
  if (!checked.isFile())
    throw new CameraUnavailable(`${path} is not a regular file`);
  if (checked.size > MAX_PICTURE_BYTES)
    throw new CameraUnavailable(`${path} is larger than ${MAX_PICTURE_BYTES} bytes`);
  const handle = await open(path, options.followLinks ? READ : READ | constants.O_NOFOLLOW);
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.dev !== checked.dev || opened.ino !== checked.ino) {
      throw new CameraUnavailable(`${path} changed while it was opened`);
    }
    if (opened.size > MAX_PICTURE_BYTES)
      throw new CameraUnavailable(`${path} is larger than ${MAX_PICTURE_BYTES} bytes`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
async function readStart(path, checked, length, options) {
  if (!checked.isFile())
    return void 0;
  try {
    const handle = await open(path, options.followLinks ? READ : READ | constants.O_NOFOLLOW);
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.dev !== checked.dev || opened.ino !== checked.ino)
        return void 0;
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return void 0;
  }
}

// dist/picture/folder.js
import { watch } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join as join3, sep } from "node:path";
var SIGNATURE_BYTES = 16;
var NewestInFolder = class {
  dir;
  entries = /* @__PURE__ */ new Map();
  listed;
  realDir;
  dirty = /* @__PURE__ */ new Set();
  watcher;
  /** How many folder entries have been examined (lstat) since the start: a second capture adds only what changed. */
  examined = 0;
  constructor(dir) {
    this.dir = dir;
  }
  async capture() {
    await this.refresh();
    const tried = /* @__PURE__ */ new Set();
    for (let name = this.newestUntried(tried); name !== void 0; name = this.newestUntried(tried)) {
      tried.add(name);
      const picture = await this.read(name);
      if (picture)
        return picture;
    }
    throw new CameraUnavailable(`no complete JPEG, PNG or WebP image in ${this.dir}`);
  }
  /** Stops watching the folder. */
  close() {
    this.watcher?.close();
    this.watcher = void 0;
  }
  async refresh() {
    const info = await stat(this.dir);
    if (!info.isDirectory())
      throw new CameraUnavailable(`${this.dir} is no longer a folder`);
    if (this.listed && this.listed.ino !== info.ino) {
      this.close();
      this.forget();
    }
    if (this.listed?.mtimeMs !== info.mtimeMs) {
      this.realDir ??= await realpath(this.dir);
      const names = new Set(await readdir(this.dir));
      for (const name of this.entries.keys())
        if (!names.has(name))
          this.entries.delete(name);
      for (const name of names)
        if (!this.entries.has(name))
          this.dirty.add(name);
      this.listed = { ino: info.ino, mtimeMs: info.mtimeMs };
      this.startWatching();
    }
    for (const name of [...this.dirty]) {
      this.dirty.delete(name);
      const entry2 = await this.examine(name);
      if (entry2 === void 0)
        this.entries.delete(name);
      else
        this.entries.set(name, entry2);
    }
  }
  /** The entry for a name; null when it is no candidate (a folder, a FIFO, a link leaving the folder), undefined when gone. */
  async examine(name) {
    this.examined++;
    const path = join3(this.dir, name);
    const own = await lstat(path).catch(() => void 0);
    if (!own)
      return void 0;
    if (own.isFile())
      return { path, checked: own, followLinks: false };
    if (!own.isSymbolicLink())
      return null;
    const target = await realpath(path).catch(() => void 0);
    if (!target || !target.startsWith(this.realDir + sep))
      return null;
    const checked = await stat(target).catch(() => void 0);
    return checked?.isFile() ? { path: target, checked, followLinks: false } : null;
  }
  newestUntried(tried) {
    let newest;
    for (const [name, entry2] of this.entries) {
      if (!entry2 || tried.has(name))
        continue;
      const { mtimeMs } = entry2.checked;
      if (!newest || mtimeMs > newest.mtimeMs || mtimeMs === newest.mtimeMs && name > newest.name)
        newest = { name, mtimeMs };
    }
    return newest?.name;
  }
  /** The picture of one entry, looked at afresh; undefined when it is not (or no longer) a complete image. */
  async read(name) {
    const fresh = await this.examine(name);
    if (fresh === void 0) {
      this.entries.delete(name);
      return void 0;
    }
    this.entries.set(name, fresh);
    if (!fresh)
      return void 0;
    const start = await readStart(fresh.path, fresh.checked, SIGNATURE_BYTES, fresh);
    if (!start || !detectImageType(start))
      return void 0;
    try {
      const bytes = await readRegularFile(fresh.path, fresh.checked, fresh);
      const check = inspectImage(bytes);
      return check.ok ? { bytes, type: check.image.type } : void 0;
    } catch {
      return void 0;
    }
  }
  startWatching() {
    if (this.watcher)
      return;
    try {
      this.watcher = watch(this.dir, { persistent: false }, (_event, name) => {
        if (name)
          this.dirty.add(name.toString());
        else
          this.forget();
      });
      this.watcher.on("error", () => {
        this.close();
        this.forget();
      });
    } catch {
    }
  }
  forget() {
    this.entries.clear();
    this.dirty.clear();
    this.listed = void 0;
    this.realDir = void 0;
  }
};

// dist/picture/sources.js
function asPicture(bytes, what) {
  const check = inspectImage(bytes);
  if (!check.ok)
    throw new CameraUnavailable(`${what} did not give a usable image: ${check.problem}`);
  return { bytes, type: check.image.type };
}
var MAX_REDIRECTS = 3;
async function fromUrl(url, timeoutMs) {
  const signal = AbortSignal.timeout(timeoutMs);
  const scheme = new URL(url).protocol;
  let response;
  let current = url;
  for (let redirects = 0; ; redirects++) {
    try {
      response = await fetch(current, { signal, redirect: "manual", headers: { accept: "image/jpeg, image/png, image/webp" } });
    } catch (error) {
      throw new CameraUnavailable(`${url}: ${signal.aborted ? `no answer within ${timeoutMs} ms` : reason(error)}`);
    }
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null)
      break;
    await response.body?.cancel().catch(() => {
    });
    const next = URL.canParse(location, current) ? new URL(location, current) : void 0;
    if (!next || next.protocol !== scheme)
      throw new CameraUnavailable(`${url} redirected to ${location}, not ${scheme} like the source`);
    if (redirects >= MAX_REDIRECTS)
      throw new CameraUnavailable(`${url} redirected more than ${MAX_REDIRECTS} times`);
    current = next.href;
  }
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (!response.ok || declared > MAX_PICTURE_BYTES) {
    await response.body?.cancel().catch(() => {
    });
    throw new CameraUnavailable(response.ok ? `${url} announced ${declared} bytes` : `${url} answered ${response.status}`);
  }
  const chunks2 = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > MAX_PICTURE_BYTES) {
        await response.body?.cancel().catch(() => {
        });
        throw new CameraUnavailable(`${url} sent more than ${MAX_PICTURE_BYTES} bytes`);
      }
      chunks2.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof CameraUnavailable)
      throw error;
    throw new CameraUnavailable(`${url}: ${signal.aborted ? `image not received within ${timeoutMs} ms` : reason(error)}`);
  }
  return asPicture(Buffer.concat(chunks2), url);
}
function fromPath(path) {
  let folder;
  return {
    capture: async () => {
      try {
        const info = await stat2(path);
        if (info.isDirectory()) {
          folder ??= new NewestInFolder(path);
          return await folder.capture();
        }
        return asPicture(await readRegularFile(path, info, { followLinks: true }), path);
      } catch (error) {
        if (error instanceof CameraUnavailable)
          throw error;
        throw new CameraUnavailable(`${path}: ${reason(error)}`);
      }
    },
    close: () => folder?.close()
  };
}
function fromCommand(command, timeoutMs) {
  return new Promise((resolve4, reject) => {
    const child = spawn("/bin/sh", ["-c", command], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    const chunks2 = [];
    let size = 0;
    let stderr = "";
    let settled = false;
    const killGroup = () => {
      try {
        if (child.pid)
          process.kill(-child.pid, "SIGKILL");
      } catch {
      }
    };
    const fail = (message) => {
      if (settled)
        return;
      settled = true;
      clearTimeout(timer);
      killGroup();
      const said = stderr.trim().split("\n").at(-1);
      reject(new CameraUnavailable(said ? `${message}: ${said}` : message));
    };
    const timer = setTimeout(() => fail(`"${command}" ran over ${timeoutMs} ms`), timeoutMs);
    child.stdout.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_PICTURE_BYTES)
        fail(`"${command}" wrote more than ${MAX_PICTURE_BYTES} bytes`);
      else
        chunks2.push(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk.toString()).slice(-500);
    });
    child.on("error", (error) => fail(`"${command}": ${error.message}`));
    child.on("close", (code, signal) => {
      if (settled)
        return;
      if (code !== 0)
        return fail(`"${command}" ${signal ? `was killed by ${signal}` : `exited with ${code}`}`);
      settled = true;
      clearTimeout(timer);
      try {
        resolve4(asPicture(Buffer.concat(chunks2), `"${command}"`));
      } catch (error) {
        reject(error);
      }
    });
  });
}
function pictureSource2(source, timeoutMs) {
  let capture;
  let close = () => {
  };
  let isStuck2 = () => false;
  if (/^https?:\/\//.test(source))
    capture = () => fromUrl(source, timeoutMs);
  else if (source.startsWith("file:")) {
    const path = source.replace(/^file:(\/\/)?/, "");
    const file = fromPath(path);
    capture = () => fileGate.run(file.capture, timeoutMs, path);
    close = file.close;
    isStuck2 = () => fileGate.stuck();
  } else if (source.startsWith("exec:")) {
    const command = source.slice("exec:".length).trim();
    capture = () => fromCommand(command, timeoutMs);
  } else
    throw new Error(`unknown picture source ${source}`);
  let last;
  const tracked = async () => {
    try {
      const picture = await capture();
      last = "ok";
      return picture;
    } catch (error) {
      last = "failing";
      throw error;
    }
  };
  return Object.assign(tracked, { state: () => isStuck2() ? "stuck" : last ?? "unknown", close });
}

// dist/picture/routes.js
init_schema_common();

// dist/picture/docs.js
var USERS_AND_PICTURE = "Users, tokens and picture";
var pictureDocs = {
  get: (failureKeptMs, maxRedirects) => doc(USERS_AND_PICTURE, "Picture", "picture", `The current camera image, its Content-Type (image/jpeg, image/png or image/webp) taken from its bytes, sent with Cache-Control: no-store. PICTURE_SOURCE says where it comes from: a snapshot URL (http/https, fetched within PICTURE_TIMEOUT_MS, at most ${maxRedirects} redirects followed and only to the same scheme), \`file:\` a regular file or the newest image file of a folder by modification time (other files, FIFOs, devices and symlinks that leave the folder skipped; the listing is kept between captures and only what changed is looked at again; file captures run one at a time, so a file on a hung mount holds one thread and later captures answer 503 at their limit), \`exec:\` a command run by /bin/sh whose standard output is the image (killed with everything it started when it runs over PICTURE_TIMEOUT_MS, a non-zero exit is a failure), or, unset, the last picture uploaded with PUT /picture. A picture must be complete, with a header giving its dimensions (JPEG SOF and EOI, PNG IHDR and IEND, WebP VP8/VP8L/VP8X within the announced RIFF length). A picture is shared by every request for PICTURE_CACHE_MS, and concurrent requests wait for one capture instead of starting their own. A failed capture is answered from memory for at most ${failureKeptMs} ms (never longer than PICTURE_CACHE_MS), then the camera is asked again. 503 when there is no picture: nothing uploaded, or a source that fails, times out, sends more than 10 MiB or something that is not a complete JPEG, PNG or WebP image. GET /healthz tells the state of the source.`),
  upload: doc(USERS_AND_PICTURE, "Upload Picture", "uploadPicture", "Stores the raw request body (Content-Type image/jpeg, image/png or image/webp, at most 10 MiB) as the picture, replacing the previous one; it is kept in the store, so it survives restarts, and GET /picture serves it at once (other processes on the same store within PICTURE_CACHE_MS). The type is taken from the bytes: a body labelled with one accepted type that holds another accepted type is stored and served as what it is, while a body that is not a JPEG, PNG or WebP image is refused with 422 (type image_type) whatever the header says, and one that has an image's magic bytes but is not complete, or has no header giving its dimensions (JPEG SOF and EOI, PNG IHDR and IEND, WebP VP8/VP8L/VP8X within the announced RIFF length), with 422 (type image_incomplete). 415 for any other Content-Type, 413 over 10 MiB; a refused upload changes nothing. When PICTURE_SOURCE is set the upload is still stored (it is served once the source is unset) but GET /picture serves the configured source.")
};

// dist/picture/cache.js
function sharedCapture(capture, options) {
  const now = options.now ?? Date.now;
  let kept;
  let inFlight;
  let generation = 0;
  const keep = (outcome, ttl, started) => {
    if (started === generation && ttl > 0)
      kept = { outcome, until: now() + ttl };
  };
  return {
    get() {
      if (kept && now() < kept.until) {
        const { outcome } = kept;
        return outcome.ok ? Promise.resolve(outcome.value) : Promise.reject(outcome.error);
      }
      kept = void 0;
      if (inFlight)
        return inFlight;
      const started = generation;
      const current = capture().then((value) => {
        keep({ ok: true, value }, options.ttlMs, started);
        return value;
      }, (error) => {
        keep({ ok: false, error }, Math.min(options.failureTtlMs, options.ttlMs), started);
        throw error;
      });
      inFlight = current;
      const clear3 = () => {
        if (inFlight === current)
          inFlight = void 0;
      };
      current.then(clear3, clear3);
      return current;
    },
    /** Forgets the kept result and any capture under way (a new picture was uploaded). */
    invalidate() {
      kept = void 0;
      inFlight = void 0;
      generation++;
    }
  };
}

// dist/picture/service.js
init_errors();
var FAILURE_KEPT_MS = 1e3;
function pictureService({ store, now }, settings) {
  const uploaded = async () => {
    const stored = await store.pictures.get();
    if (!stored)
      throw new CameraUnavailable("no picture uploaded yet");
    return { bytes: stored.bytes, type: stored.content_type };
  };
  const source = settings.source ? pictureSource2(settings.source, settings.timeoutMs) : void 0;
  const capture = sharedCapture(source ?? uploaded, { ttlMs: settings.cacheMs, failureTtlMs: FAILURE_KEPT_MS, now });
  return {
    /** The current picture, shared by every caller for the cache lifetime; throws CameraUnavailable. */
    current: () => capture.get(),
    /** A camera to take pictures from: PICTURE_SOURCE, or a picture uploaded once. */
    hasCamera: async () => source !== void 0 || await store.pictures.get() !== void 0,
    /** The state of PICTURE_SOURCE by its captures; `none` without one (uploads are served). */
    health: () => source?.state() ?? "none",
    /**
     * Stores an uploaded image, its type taken from its bytes, and serves it from now on. Magic
     * bytes alone are not enough: a truncated or fake image is refused like a non-image.
     */
    async upload(bytes) {
      if (!detectImageType(bytes))
        throw new InvalidInput({ loc: ["body"], msg: "The body is not a JPEG, PNG or WebP image", type: "image_type" });
      const check = inspectImage(bytes);
      if (!check.ok)
        throw new InvalidInput({ loc: ["body"], msg: `The body is not a complete image: ${check.problem}`, type: "image_incomplete" });
      await store.pictures.put(bytes, check.image.type, now());
      capture.invalidate();
    },
    /** Stops the source's folder watch, if it has one. */
    close() {
      source?.close();
    }
  };
}

// dist/picture/routes.js
var json = (schema) => ({ "application/json": { schema } });
var imageContent = (description) => Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: { type: "string", format: "binary", description } }]));
var pictureRoutes = async (app, { services: { pictures } }) => {
  for (const type of IMAGE_TYPES) {
    app.addContentTypeParser(type, { parseAs: "buffer", bodyLimit: MAX_PICTURE_BYTES }, (_request, body, done) => done(null, body));
  }
  app.get("/picture", {
    config: { access: "read" },
    schema: {
      ...pictureDocs.get(FAILURE_KEPT_MS, MAX_REDIRECTS),
      response: {
        200: { description: "The image bytes.", content: imageContent("The image bytes") },
        503: { description: "Camera not available.", content: json(Type19.Ref(ErrorBody)) }
      }
    },
    handler: async (request, reply) => {
      reply.header("Cache-Control", "no-store");
      try {
        const picture = await pictures.current();
        return reply.type(picture.type).send(picture.bytes);
      } catch (error) {
        if (!(error instanceof CameraUnavailable))
          throw error;
        request.log.warn({ reason: error.message }, "camera not available");
        return reply.code(503).send({ detail: "Camera not available." });
      }
    }
  });
  app.put("/picture", {
    config: { access: "modify" },
    bodyLimit: MAX_PICTURE_BYTES,
    // The body schema only documents the bytes; the service checks them (a Buffer is no JSON string).
    validatorCompiler: () => () => true,
    schema: {
      ...pictureDocs.upload,
      body: { content: imageContent("The image bytes") },
      response: {
        204: { description: "Stored.", type: "null" },
        413: { description: "Body over 10 MiB.", content: json(Type19.Ref(ErrorBody)) },
        415: { description: "Not an image content type.", content: json(Type19.Ref(ErrorBody)) },
        422: { description: "The bytes are not a complete JPEG, PNG or WebP image.", content: json(Type19.Ref(ValidationErrorBody)) }
      }
    },
    handler: async (request, reply) => {
      const mime = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
      if (!IMAGE_TYPES.includes(mime) || !Buffer.isBuffer(request.body)) {
        throw new HttpError(415, "Unsupported content type: send the image as image/jpeg, image/png or image/webp");
      }
      await pictures.upload(request.body);
      return reply.code(204).send();
    }
  });
};
var routes_default7 = pictureRoutes;

// dist/picture/index.js
async function register12(app, deps) {
  await app.register(routes_default7, deps);
  app.addHook("onClose", async () => deps.services.pictures.close());
}

// dist/prototypes/routes.js
init_schema_common();
import { Type as Type20 } from "@sinclair/typebox";

// dist/prototypes/docs.js
var PROTOTYPES2 = "Prototypes";
var prototypeDocs = {
  list: doc(PROTOTYPES2, "Prototypes", "prototypes", "All prototypes, by prototype_id."),
  post: doc(PROTOTYPES2, "Post Prototype", "postPrototype", "Creates a prototype with the id the client chose. 409 when the id is taken."),
  rename: doc(PROTOTYPES2, "Rename Prototype", "renamePrototype", "Renames the prototype (prototype_name: 1 to 200 characters). 200 with the prototype; 404 when it does not exist; 422 for a bad name, nothing written then. Needs modify (4) in AUTH_MODE=enforced."),
  get: doc(PROTOTYPES2, "Prototype", "prototype", "The prototype. paused_until is when its dosing pause ends, or null when it is not paused (or the pause has ended)."),
  pause: doc(PROTOTYPES2, "Pause Prototype", "pausePrototype", 'Pauses dosing on the prototype: every actuator of it answers activate: false (reason paused) until paused_until. Body {"for": duration}: seconds as a number, or a duration text (ISO 8601 such as PT30M, 02:00:00, 1d); 1 second to 24 hours, else 422. A second pause replaces the first (from now). The pause ends by itself at paused_until. Recorded in the journal (with the user in enforced mode). 404 when the prototype does not exist. Needs the modify permission in enforced mode.'),
  resume: doc(PROTOTYPES2, "Resume Prototype", "resumePrototype", "Ends the pause now (204 without a body, also when it was not paused). Ending a pause still running is recorded in the journal as a resume. 404 when the prototype does not exist. Needs the modify permission in enforced mode."),
  remove: doc(PROTOTYPES2, "Delete Prototype", "deletePrototype", "Deletes the prototype. 204 without a body; 404 when it does not exist. While it has sensors or notes: 409 with a detail that counts its sensors, actuators, measurements and notes, and the counts as data in `dependents`, unless cascade=true, which deletes all of them with it in one transaction (its journal goes with it: notes, pauses, and the doses, calibrations, lockouts and unlocks of what it held). The default prototype 0 is not special: deleted, it is not created again.")
};

// dist/prototypes/routes.js
var prototypeRoutes = async (app, { services: { prototypes }, config }) => {
  const whoIs = (request) => config.authMode === "enforced" ? request.principal?.username ?? null : null;
  app.get("/prototypes", {
    config: { access: "read" },
    schema: { ...prototypeDocs.list, response: { 200: Type20.Array(Prototype) } },
    handler: () => prototypes.list()
  });
  app.post("/prototypes", {
    config: { access: "modify" },
    schema: { ...prototypeDocs.post, body: PrototypeBase, response: { 200: Prototype, ...errorResponses(409, 422) } },
    handler: (request) => prototypes.create(request.body)
  });
  app.get("/prototypes/:prototype_id", {
    config: { access: "read" },
    schema: { ...prototypeDocs.get, params: PrototypeIdParams, response: { 200: Prototype, ...errorResponses(404, 422) } },
    handler: (request) => prototypes.get(request.params.prototype_id)
  });
  app.patch("/prototypes/:prototype_id", {
    config: { access: "modify" },
    schema: { ...prototypeDocs.rename, params: PrototypeIdParams, body: PrototypeRename, response: { 200: Prototype, ...errorResponses(404, 422) } },
    handler: (request) => prototypes.rename(request.params.prototype_id, request.body.prototype_name)
  });
  app.post("/prototypes/:prototype_id/pause", {
    config: { access: "modify" },
    schema: { ...prototypeDocs.pause, params: PrototypeIdParams, body: PauseBody, response: { 200: Pause, ...errorResponses(404, 422) } },
    handler: (request) => prototypes.pause(request.params.prototype_id, request.body, whoIs(request))
  });
  app.delete("/prototypes/:prototype_id/pause", {
    config: { access: "modify" },
    schema: { ...prototypeDocs.resume, params: PrototypeIdParams, response: { 204: Deleted, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      await prototypes.resume(request.params.prototype_id, whoIs(request));
      return reply.code(204).send();
    }
  });
  app.delete("/prototypes/:prototype_id", {
    config: { access: "modify" },
    schema: {
      ...prototypeDocs.remove,
      params: PrototypeIdParams,
      querystring: CascadeQuery,
      response: { 204: Deleted, 409: Type20.Ref(RemovalRefusedBody), ...errorResponses(404, 422) }
    },
    handler: async (request, reply) => {
      await prototypes.remove(request.params.prototype_id, request.query.cascade);
      return reply.code(204).send();
    }
  });
};
var routes_default8 = prototypeRoutes;

// dist/prototypes/index.js
async function register13(app, deps) {
  await app.register(routes_default8, deps);
}

// dist/records/calibration-alerts.js
init_postgres_relay();
var KIND = "calibration_due";
var dueOf = (sensor) => sensor.calibration_due === null ? null : Date.parse(sensor.calibration_due);
async function raise(tx, sensorId, at, webhookUrls2) {
  const sensor = await tx.sensors.get(sensorId);
  const due = sensor ? dueOf(sensor) : null;
  if (!sensor || due === null || due > at || await tx.alerts.activeOfSensor(sensorId, KIND))
    return void 0;
  const row = await tx.alerts.raise({ sensor_id: sensorId, kind: KIND, severity: "warning", raised_at: due, value: null, peak: null });
  const news = { event: "raised", alert: alertOf(row, sensor.prototype_id) };
  await enqueueNotifications(tx.alerts, webhookUrls2, [news], at);
  return news;
}
async function clear2(tx, sensorId, at, webhookUrls2) {
  const active = await tx.alerts.activeOfSensor(sensorId, KIND);
  if (!active)
    return void 0;
  const sensor = await tx.sensors.get(sensorId);
  const due = sensor ? dueOf(sensor) : null;
  if (due !== null && due <= at)
    return void 0;
  const row = await tx.alerts.change(active.alert_id, { state: "cleared", cleared_at: at });
  const news = { event: "cleared", alert: alertOf(row, active.prototype_id) };
  await enqueueNotifications(tx.alerts, webhookUrls2, [news], at);
  return news;
}
function calibrationAlerts({ store, bus, now, timers, log, webhookUrls: webhookUrls2 }) {
  const due = /* @__PURE__ */ new Map();
  const alarms = /* @__PURE__ */ new Map();
  const active = /* @__PURE__ */ new Set();
  const asked = /* @__PURE__ */ new Map();
  let chain = Promise.resolve();
  let stopped = false;
  const unsubscribe = [];
  function change(sensorId, what) {
    if (stopped || asked.get(sensorId) === what)
      return;
    asked.set(sensorId, what);
    chain = chain.then(async () => {
      if (asked.get(sensorId) !== what)
        return;
      asked.delete(sensorId);
      try {
        const at = now();
        const news = await store.transaction((tx) => (what === "raise" ? raise : clear2)(tx, sensorId, at, webhookUrls2));
        if (news)
          bus.publish("alert", news);
      } catch (error) {
        if (!isUniqueViolation(error))
          log.error({ err: error, sensorId }, `changing the ${KIND} alert failed`);
      }
    });
  }
  function arm(sensorId) {
    const alarm = alarms.get(sensorId);
    if (alarm !== void 0)
      timers.clear(alarm);
    alarms.delete(sensorId);
    const at = due.get(sensorId);
    if (at === void 0 || stopped)
      return;
    if (at <= now()) {
      if (!active.has(sensorId))
        change(sensorId, "raise");
      return;
    }
    alarms.set(sensorId, timers.set(() => {
      alarms.delete(sensorId);
      arm(sensorId);
    }, at - now()));
  }
  function follow(sensor, relayed) {
    const at = dueOf(sensor);
    if (at === null)
      due.delete(sensor.sensor_id);
    else
      due.set(sensor.sensor_id, at);
    if (!relayed && active.has(sensor.sensor_id) && (at === null || at > now()))
      change(sensor.sensor_id, "clear");
    arm(sensor.sensor_id);
  }
  function forget(sensorId) {
    due.delete(sensorId);
    active.delete(sensorId);
    asked.delete(sensorId);
    arm(sensorId);
  }
  return {
    /** Reads the sensors and the active alerts, settles what changed while stopped, and sets the alarms. */
    async start() {
      unsubscribe.push(bus.subscribe("sensor", (c) => c.action === "deleted" ? forget(c.sensorId) : follow(c.sensor, isRelayed(c))), bus.subscribe("alert", ({ alert }) => {
        if (alert.kind !== KIND || alert.sensor_id === null)
          return;
        if (alert.state === "active")
          active.add(alert.sensor_id);
        else
          active.delete(alert.sensor_id);
      }));
      const [sensors, alerts] = await Promise.all([store.sensors.list(), store.alerts.active(void 0, [KIND])]);
      for (const alert of alerts)
        active.add(alert.sensor_id);
      for (const sensor of sensors) {
        const at = dueOf(sensor);
        if (at !== null)
          due.set(sensor.sensor_id, at);
      }
      for (const sensorId of active) {
        const at = due.get(sensorId);
        if (at === void 0 || at > now())
          change(sensorId, "clear");
      }
      for (const sensorId of due.keys())
        arm(sensorId);
    },
    /** Resolves once the changes asked for so far are made and published (tests). */
    async idle() {
      let last;
      while (last !== chain) {
        last = chain;
        await last;
      }
    },
    async stop() {
      stopped = true;
      for (const stop of unsubscribe.splice(0))
        stop();
      for (const alarm of alarms.values())
        timers.clear(alarm);
      alarms.clear();
      await chain;
    }
  };
}

// dist/records/calibration-service.js
init_errors();

// dist/records/calibration-fit.js
var ACCEPTED_SLOPE = { min: 0.9, max: 1.1 };
var SLOPE_TOLERANCE = 1e-9;
function fitCalibration(points) {
  if (points.length === 1) {
    const offset2 = points[0].reading - points[0].reference;
    return Number.isFinite(offset2) ? { slope: 1, offset: offset2, accepted: true } : "not_finite";
  }
  if (points.every((p) => p.reference === points[0].reference))
    return "references_equal";
  const n = points.length;
  const meanReference = points.reduce((sum, p) => sum + p.reference, 0) / n;
  const meanReading = points.reduce((sum, p) => sum + p.reading, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    const dx = p.reference - meanReference;
    sxy += dx * (p.reading - meanReading);
    sxx += dx * dx;
  }
  const slope = sxy / sxx;
  const offset = meanReading - slope * meanReference;
  if (!Number.isFinite(slope) || !Number.isFinite(offset))
    return "not_finite";
  const accepted = slope >= ACCEPTED_SLOPE.min - SLOPE_TOLERANCE && slope <= ACCEPTED_SLOPE.max + SLOPE_TOLERANCE;
  return { slope, offset, accepted };
}

// dist/records/record-time.js
init_date_time();
init_errors();
var MAX_FUTURE_MS = 5 * 60 * 1e3;
function recordTime(text2, now, loc) {
  if (text2 === void 0)
    return now;
  const at = parseDateTime(text2);
  if (at > now + MAX_FUTURE_MS)
    throw new InvalidInput({ loc, msg: "The time is more than 5 minutes in the future", type: "value_error" });
  return at;
}

// dist/records/calibration-service.js
var sensorNotFound = (id) => `Sensor ${id} not found`;
var msOrNull = (iso3) => iso3 === null ? null : Date.parse(iso3);
var PROBLEMS = {
  references_equal: "With two points or more, the references must not all be equal: no slope can be fitted",
  not_finite: "The points are too large to fit a line through them"
};
function calibrationService({ store, bus, now }) {
  return {
    async record(sensorId, body, author) {
      const at = recordTime(body.calibrated_at, now(), ["body", "calibrated_at"]);
      const fit = fitCalibration(body.points);
      if (typeof fit === "string")
        throw new InvalidInput({ loc: ["body", "points"], msg: PROBLEMS[fit], type: fit });
      const done = await store.transaction(async (tx) => {
        await tx.sensors.lock([sensorId]);
        const sensor = await tx.sensors.get(sensorId);
        if (!sensor)
          throw new NotFound(sensorNotFound(sensorId));
        const calibration = await tx.calibrations.record({
          sensor_id: sensorId,
          calibrated_at: at,
          points: body.points,
          ...fit,
          note: body.note ?? null,
          author
        });
        const last = msOrNull(sensor.calibrated_at);
        let updated;
        if (fit.accepted && (last === null || at >= last)) {
          const reminder = { intervalDays: sensor.calibration_interval, due: msOrNull(sensor.calibration_due) };
          updated = await tx.sensors.calibrated(sensorId, at, calibrationDue(sensor.calibration_interval, at, reminder, now()));
        }
        return { calibration, updated };
      });
      if (done.updated)
        bus.publish("sensor", { action: "updated", sensor: done.updated });
      return calibrationView(done.calibration);
    },
    /** The sensor's calibrations, newest first. */
    async list(sensorId, limit) {
      if (!await store.sensors.get(sensorId))
        throw new NotFound(sensorNotFound(sensorId));
      return (await store.calibrations.list(sensorId, limit)).map(calibrationView);
    }
  };
}

// dist/records/journal-service.js
init_errors();

// dist/core/window.js
init_date_time();
init_time_window();
init_errors();
function windowOf(query, now) {
  const window = resolveWindow({
    time_delta: query.time_delta,
    start_time: query.start_time === void 0 ? void 0 : parseDateTime(query.start_time),
    end_time: query.end_time === void 0 ? void 0 : parseDateTime(query.end_time)
  }, now);
  if (isWindowProblem(window))
    throw new InvalidInput({ loc: ["query", window.field], msg: window.msg, type: window.type });
  return window;
}

// dist/records/journal.js
var cursorText = (r) => `${r.at}.${r.type}.${r.id}`;
var CURSOR = /^(-?\d{1,15})\.([a-z_]{1,32})\.(\d{1,10})$/;
function parseCursor(text2, types) {
  const match = CURSOR.exec(text2);
  if (!match || !types.includes(match[2]))
    return void 0;
  return { at: Number(match[1]), type: match[2], id: Number(match[3]) };
}
function keysetFor(rank, cursorRank, cursor) {
  if (rank < cursorRank)
    return { at: cursor.at + 1, id: 0 };
  if (rank > cursorRank)
    return { at: cursor.at, id: 0 };
  return { at: cursor.at, id: cursor.id };
}
async function readJournal(sources, store, prototypeId, { window, filter, before, limit }) {
  const rankOfType = new Map(sources.flatMap((s, rank) => s.types.map((t) => [t, rank])));
  const cursorRank = before === void 0 ? void 0 : rankOfType.get(before.type);
  const pages = await Promise.all(sources.map(async (source, rank) => {
    if (!source.types.some((t) => filter.types.has(t)) || filter.tag !== void 0 && !source.tagged)
      return [];
    const keyset = before === void 0 || cursorRank === void 0 ? void 0 : keysetFor(rank, cursorRank, before);
    const rows = await source.read(store, prototypeId, filter, { window, before: keyset, limit });
    return rows.filter((r) => filter.types.has(r.type)).map((record) => ({ record, rank }));
  }));
  return pages.flat().sort((a, b) => b.record.at - a.record.at || b.rank - a.rank || b.record.id - a.record.id).slice(0, limit).map((e) => e.record);
}

// dist/records/journal-csv.js
init_date_time();

// dist/measurements/csv.js
init_date_time();
function csvField(value) {
  const text2 = String(value);
  return /[",\r\n]/.test(text2) ? `"${text2.replace(/"/g, '""')}"` : text2;
}
function csvRow(fields) {
  return `${fields.map(csvField).join(",")}\r
`;
}
var EXPORT_HEADER = [
  "Sensor ID",
  "Sensor Type",
  "Sensor Value",
  "Timestamp",
  "Threshold Critically Low",
  "Threshold Low",
  "Threshold High",
  "Threshold Critically High"
];
async function* exportLines(sensors, walk) {
  yield csvRow(EXPORT_HEADER);
  for (const sensor of sensors) {
    const head = `${sensor.sensor_id},${csvField(sensor.sensor_type)},`;
    const tail = `,${sensor.threshold_critically_low},${sensor.threshold_low},${sensor.threshold_high},${sensor.threshold_critically_high}\r
`;
    for await (const page of walk(sensor.sensor_id)) {
      let chunk = "";
      for (const m of page)
        chunk += head + m.value + "," + isoOf(m.timestamp) + tail;
      yield chunk;
    }
  }
}

// dist/records/journal-csv.js
var COMMON_COLUMNS = ["type", "at", "id", "sensor_id", "actuator_id", "author", "text", "tags"];
function journalColumns(sources) {
  return [...COMMON_COLUMNS, ...new Set(sources.flatMap((s) => s.detailKeys))];
}
var spreadsheetText = (text2) => /^[=+\-@\t\r]/.test(text2) ? `'${text2}` : text2;
var fieldOf = (value) => value === null || value === void 0 ? "" : typeof value === "boolean" ? String(value) : value;
function journalLine(record, columns3) {
  const detailColumns = columns3.slice(COMMON_COLUMNS.length);
  return csvRow([
    record.type,
    isoOf(record.at),
    record.id,
    fieldOf(record.sensor_id),
    fieldOf(record.actuator_id),
    record.author === null ? "" : spreadsheetText(record.author),
    record.text === null ? "" : spreadsheetText(record.text),
    record.tags.map(spreadsheetText).join("; "),
    ...detailColumns.map((key) => fieldOf(record.detail[key]))
  ]);
}
async function* journalCsv(sources, pages) {
  const columns3 = journalColumns(sources);
  yield csvRow(columns3);
  for await (const page of pages) {
    let chunk = "";
    for (const record of page)
      chunk += journalLine(record, columns3);
    if (chunk !== "")
      yield chunk;
  }
}

// dist/records/journal-sources.js
var entry = (fields) => ({
  sensor_id: null,
  actuator_id: null,
  author: null,
  text: null,
  tags: [],
  detail: {},
  ...fields
});
var notes = {
  types: ["note"],
  detailKeys: [],
  tagged: true,
  async read(store, prototypeId, { tag }, page) {
    const rows = await store.notes.list({ prototypeId, tag }, page);
    return rows.map((n) => entry({ type: "note", at: n.at, id: n.note_id, author: n.author, text: n.text, tags: n.tags }));
  }
};
var doses = {
  types: ["dose"],
  detailKeys: ["duration", "volume_ml", "value_before", "answered"],
  tagged: false,
  async read(store, prototypeId, _filter, page) {
    const rows = await store.activations.ofPrototype(prototypeId, page);
    return rows.map((d) => entry({
      type: "dose",
      at: d.activated_at,
      id: d.activation_id,
      sensor_id: d.sensor_id,
      actuator_id: d.actuator_id,
      detail: { duration: d.duration, volume_ml: d.volume_ml, value_before: d.value_before, answered: d.answered }
    }));
  }
};
var calibrations = {
  types: ["calibration"],
  detailKeys: ["slope", "offset", "accepted", "points"],
  tagged: false,
  async read(store, prototypeId, _filter, page) {
    const rows = await store.calibrations.ofPrototype(prototypeId, page);
    return rows.map((c) => entry({
      type: "calibration",
      at: c.calibrated_at,
      id: c.calibration_id,
      sensor_id: c.sensor_id,
      author: c.author,
      text: c.note,
      detail: { slope: c.slope, offset: c.offset, accepted: c.accepted, points: c.points.length }
    }));
  }
};
var SAFETY_TYPES = ["lockout", "unlock", "pause", "resume"];
var safetyEvents = {
  types: SAFETY_TYPES,
  detailKeys: ["until"],
  tagged: false,
  async read(store, prototypeId, { types }, page) {
    const rows = await store.safetyEvents.ofPrototype(prototypeId, SAFETY_TYPES.filter((t) => types.has(t)), page);
    return rows.map((e) => entry({
      type: e.kind,
      at: e.at,
      id: e.event_id,
      actuator_id: e.actuator_id,
      author: e.author,
      text: e.reason,
      detail: { until: e.until === null ? null : new Date(e.until).toISOString() }
    }));
  }
};
var refills = {
  types: ["refill"],
  detailKeys: ["stock_ml"],
  tagged: false,
  async read(store, prototypeId, _filter, page) {
    const rows = await store.refills.ofPrototype(prototypeId, page);
    return rows.map((r) => entry({
      type: "refill",
      at: r.refilled_at,
      id: r.refill_id,
      sensor_id: r.sensor_id,
      actuator_id: r.actuator_id,
      author: r.author,
      detail: { stock_ml: r.stock_ml }
    }));
  }
};
var JOURNAL_SOURCES = [notes, doses, refills, calibrations, safetyEvents];
var JOURNAL_TYPES = JOURNAL_SOURCES.flatMap((s) => s.types);

// dist/records/journal-service.js
var CSV_PAGE = 1e3;
function typesOf(list) {
  if (list === void 0)
    return new Set(JOURNAL_TYPES);
  const types = /* @__PURE__ */ new Set();
  for (const name of list.split(",").map((n) => n.trim())) {
    if (name === "")
      continue;
    if (!JOURNAL_TYPES.includes(name)) {
      throw new InvalidInput({
        loc: ["query", "type"],
        msg: `Unknown journal entry type "${name}" (known: ${JOURNAL_TYPES.join(", ")})`,
        type: "enum"
      });
    }
    types.add(name);
  }
  return types;
}
function cursorOf(text2) {
  if (text2 === void 0)
    return void 0;
  const cursor = parseCursor(text2, JOURNAL_TYPES);
  if (!cursor)
    throw new InvalidInput({ loc: ["query", "before"], msg: "Not the cursor of a journal entry", type: "value_error" });
  return cursor;
}
function journalService({ store, now }) {
  async function query(prototypeId, q) {
    const window = windowOf({ start_time: q.start_time, end_time: q.end_time }, now());
    const filter = { types: typesOf(q.type), tag: q.tag };
    const before = cursorOf(q.before);
    if (!await store.prototypes.exists(prototypeId))
      throw new NotFound(`Prototype ${prototypeId} not found`);
    return { window, filter, before };
  }
  return {
    async page(prototypeId, q) {
      return readJournal(JOURNAL_SOURCES, store, prototypeId, { ...await query(prototypeId, q), limit: q.limit ?? 100 });
    },
    /** The whole journal the query selects (at most `limit` entries when given), as CSV text read page by page. */
    async csv(prototypeId, q) {
      const first = await query(prototypeId, q);
      async function* pages() {
        let left = q.limit ?? Infinity;
        let before = first.before;
        while (left > 0) {
          const limit = Math.min(CSV_PAGE, left);
          const page = await readJournal(JOURNAL_SOURCES, store, prototypeId, { ...first, before, limit });
          yield page;
          if (page.length < limit)
            return;
          left -= page.length;
          const last = page[page.length - 1];
          before = { at: last.at, type: last.type, id: last.id };
        }
      }
      return journalCsv(JOURNAL_SOURCES, pages());
    }
  };
}

// dist/records/note-service.js
init_note();
init_errors();
var noteNotFound = (id) => `Note ${id} not found`;
function checkText(text2, issues) {
  if (text2 !== void 0 && text2.trim() === "")
    issues.push({ loc: ["body", "text"], msg: "The text is blank", type: "string_blank" });
}
function normalTags(tags, issues) {
  const kept = [];
  tags.forEach((raw, index) => {
    const tag = raw.trim();
    if (tag === "")
      issues.push({ loc: ["body", "tags", index], msg: "A tag is blank", type: "string_blank" });
    else if (!kept.includes(tag))
      kept.push(tag);
  });
  return kept;
}
function noteService({ store, bus, now }) {
  return {
    async create(prototypeId, body, author) {
      const issues = [];
      checkText(body.text, issues);
      const tags = normalTags(body.tags ?? [], issues);
      if (issues.length > 0)
        throw new InvalidInput(...issues);
      const at = recordTime(body.at, now(), ["body", "at"]);
      const note = await store.transaction(async (tx) => {
        if (!await tx.prototypes.exists(prototypeId))
          throw new NotFound(`Prototype ${prototypeId} not found`);
        return tx.notes.create({ prototype_id: prototypeId, at, text: body.text, tags, author });
      });
      const answer = noteView(note);
      bus.publish("note", { action: "created", note: answer });
      return answer;
    },
    async update(noteId, patch) {
      const issues = [];
      checkText(patch.text, issues);
      const tags = patch.tags === void 0 ? void 0 : normalTags(patch.tags, issues);
      if (issues.length > 0)
        throw new InvalidInput(...issues);
      const at = patch.at === void 0 ? void 0 : recordTime(patch.at, now(), ["body", "at"]);
      const note = await store.transaction(async (tx) => {
        const current = await tx.notes.getLocked(noteId);
        if (!current)
          throw new NotFound(noteNotFound(noteId));
        const merged = { ...current, text: patch.text ?? current.text, at: at ?? current.at, tags: tags ?? current.tags };
        return tx.notes.update(merged);
      });
      const answer = noteView(note);
      bus.publish("note", { action: "updated", note: answer });
      return answer;
    },
    async remove(noteId) {
      const removed = await store.notes.remove(noteId);
      if (!removed)
        throw new NotFound(noteNotFound(noteId));
      bus.publish("note", { action: "deleted", noteId, prototypeId: removed.prototype_id });
    },
    async get(noteId) {
      const note = await store.notes.get(noteId);
      if (!note)
        throw new NotFound(noteNotFound(noteId));
      return noteView(note);
    },
    /** Notes newest first (ties: the later written first), after the note `before` names. */
    async list(query) {
      const window = windowOf({ start_time: query.start_time, end_time: query.end_time }, now());
      let before;
      if (query.before !== void 0) {
        const edge = await store.notes.get(query.before);
        if (!edge) {
          throw new InvalidInput({
            loc: ["query", "before"],
            msg: `Note ${query.before} does not exist: no page after it`,
            type: "value_error"
          });
        }
        before = { at: edge.at, id: edge.note_id };
      }
      const notes2 = await store.notes.list({ prototypeId: query.prototype_id, tag: query.tag }, { window, before, limit: query.limit ?? 100 });
      return notes2.map(noteView);
    }
  };
}

// dist/records/routes.js
import { Readable as Readable2 } from "node:stream";
import { Type as Type22 } from "@sinclair/typebox";
init_date_time();
init_measurement();
init_note();
init_schema_common();

// dist/records/docs.js
var SENSORS = "Sensors";
var JOURNAL = "Journal";
var MODIFY = "Needs modify (4) in AUTH_MODE=enforced, which records the user as author.";
var recordDocs = {
  calibrate: doc(SENSORS, "Post Calibration", "postCalibration", "Records a calibration of the sensor\u2019s probe: 1 to 5 points {reference, reading}, an optional note (1 to 2000 characters) and calibrated_at (default now; more than 5 minutes ahead \u2192 422). The answer holds the line fitted by least squares, reading \u2248 slope \xD7 reference + offset (one point: slope 1, offset reading \u2212 reference), and `accepted`: for two points or more, a slope within 0.9 to 1.1 (both included); one point is an offset calibration, always accepted. Two points or more whose references are all equal \u2192 422 (no slope can be fitted). An accepted calibration newer than the sensor\u2019s calibrated_at becomes it, moves calibration_due to calibrated_at + calibration_interval and clears a calibration_due alert; a refused one (or an older one, dated back) is kept in the list and changes neither. The service stores and reminds: it never rewrites readings (probes such as Atlas EZO calibrate on the device). 404 when the sensor does not exist; nothing is written on a 404 or 422. " + MODIFY),
  calibrations: doc(SENSORS, "Calibrations", "calibrations", "The sensor\u2019s calibrations, newest first by calibrated_at (ties: the later recorded first), at most `limit`. 404 when the sensor does not exist. Needs read (2) in AUTH_MODE=enforced."),
  postNote: doc(JOURNAL, "Post Note", "postNote", "Writes a note in the prototype\u2019s journal: text (1 to 2000 characters, not all blank), at (default now; more than 5 minutes ahead \u2192 422), tags (up to 8 of 1 to 32 characters; spaces around each are dropped, a repeat is kept once, a blank one \u2192 422). author is the user in enforced mode, null in open mode. 404 when the prototype does not exist. Publishes a `note` event. " + MODIFY),
  notes: doc(JOURNAL, "Notes", "notes", "Notes newest first by `at` (ties: the later written first). Filters: prototype_id, start_time and end_time ([start, end)), tag (exact). Paging: `before` names the note_id of the last note of the previous page (one that no longer exists \u2192 422). An unknown prototype_id selects nothing. Needs read (2) in AUTH_MODE=enforced."),
  getNote: doc(JOURNAL, "Note", "note", "The note; 404 when it does not exist. Needs read (2) in AUTH_MODE=enforced."),
  patchNote: doc(JOURNAL, "Update Note", "updateNote", "Changes any of text, at and tags (tags replaces the list), under the rules of Post Note; its author stays the user who wrote it (any user with modify may change any note). 404 when it does not exist; nothing is written on a 404 or 422. Publishes a `note` event. Needs modify (4) in AUTH_MODE=enforced."),
  deleteNote: doc(JOURNAL, "Delete Note", "deleteNote", 'Deletes the note: 204 without a body; 404 when it does not exist. Publishes a `note` event ({"deleted": note_id, "prototype_id"}). Needs modify (4) in AUTH_MODE=enforced.'),
  journal: doc(JOURNAL, "Journal", "journal", "The prototype\u2019s journal, newest first: its notes, the doses of the actuators on its sensors, the calibrations of its sensors, the lockouts and unlocks of those actuators, and its pauses and resumes (a resume: a pause ended early by DELETE /prototypes/{id}/pause), each with its `type` and `at`. Entries of the same instant: lockouts, unlocks, pauses and resumes first, then calibrations, doses and notes, and within each the later recorded first. Filters: start_time and end_time ([start, end)), type (comma-separated; an unknown one \u2192 422), tag (notes carrying it, and so notes only). Paging: `before` takes the `cursor` of the last entry of the previous page. format=csv answers the same entries as a CSV file, every entry when limit is not given (as GET /prototypes/{id}/journal.csv). 404 when the prototype does not exist. Needs read (2) in AUTH_MODE=enforced."),
  journalCsv: doc(JOURNAL, "Journal Csv", "journalCsv", `The prototype\u2019s journal as CSV (RFC 4180, CRLF line ends), newest first, streamed as it is read: columns type, at (ISO 8601 UTC), id, sensor_id, actuator_id, author, text, tags (joined by "; "), then each detail (duration, volume_ml, value_before, answered, stock_ml, slope, offset, accepted, points, until); a field that does not apply is empty. Text that a spreadsheet would take for a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading '. Filters as GET /prototypes/{id}/journal; every entry unless limit is given. 404 when the prototype does not exist. Needs read (2) in AUTH_MODE=enforced.`)
};

// dist/records/schemas.js
init_note();
init_schema_common();
import { Type as Type21 } from "@sinclair/typebox";
var MAX_PAGE = 1e3;
var Limit = Type21.Integer({
  minimum: 1,
  maximum: MAX_PAGE,
  default: 100,
  description: `At most this many, newest first (1 to ${MAX_PAGE}, default 100).`
});
var Tag = Type21.String({ minLength: 1, maxLength: NOTE_TAG_MAX, description: "Only the notes carrying this tag (exactly as written)." });
var CalibrationListQuery = Type21.Object({ limit: Type21.Optional(Limit) });
var NoteListQuery = Type21.Object({
  prototype_id: Type21.Optional(Id("Only this prototype\u2019s notes.")),
  start_time: Type21.Optional(DateTimeInput("Only notes at or after this instant.")),
  end_time: Type21.Optional(DateTimeInput("Only notes before this instant.")),
  tag: Type21.Optional(Tag),
  limit: Type21.Optional(Limit),
  before: Type21.Optional(Id("Paging: the note_id of the last note of the previous page; the page holds the notes after it."))
});
var DetailValue = Type21.Union([Type21.Number(), Type21.String(), Type21.Boolean(), Type21.Null()]);
var JournalEntry = Type21.Object({
  type: StringEnum(JOURNAL_TYPES),
  at: DateTimeOutput("When it happened."),
  id: Id("Its id among its kind: note_id, activation_id, refill_id, calibration_id, or the id of a lockout, unlock, pause or resume."),
  cursor: Type21.String({ description: "Pass as `before` for the entries after this one." }),
  sensor_id: Type21.Union([Id(), Type21.Null()], { description: "A dose\u2019s actuator\u2019s sensor, a calibration\u2019s sensor; else null." }),
  actuator_id: Type21.Union([Id(), Type21.Null()], { description: "A dose\u2019s, lockout\u2019s or unlock\u2019s actuator; else null." }),
  author: Type21.Union([Type21.String(), Type21.Null()], {
    description: "Who wrote the note, recorded the calibration, unlocked, paused or resumed; null in open mode and for the service\u2019s own."
  }),
  text: Type21.Union([Type21.String(), Type21.Null()], { description: "A note\u2019s text, a calibration\u2019s note, a lockout\u2019s reason; else null." }),
  tags: Type21.Array(Type21.String(), { description: "A note\u2019s tags; empty for the others." }),
  detail: Type21.Record(Type21.String(), DetailValue, {
    description: "What the type says beside: dose {duration, volume_ml, value_before, answered}; refill {stock_ml}; calibration {slope, offset, accepted, points (how many)}; lockout, unlock, pause, resume {until} (a pause\u2019s end, else null); note {}."
  })
}, { title: "JournalEntry" });
var JournalQuery = Type21.Object({
  start_time: Type21.Optional(DateTimeInput("Only entries at or after this instant.")),
  end_time: Type21.Optional(DateTimeInput("Only entries before this instant.")),
  type: Type21.Optional(Type21.String({
    maxLength: 200,
    description: `Comma-separated subset of: ${JOURNAL_TYPES.join(", ")}. Default: all.`
  })),
  tag: Type21.Optional(Tag),
  limit: Type21.Optional(Type21.Integer({
    minimum: 1,
    maximum: MAX_PAGE,
    description: `At most this many, newest first (1 to ${MAX_PAGE}; default 100, and every entry for CSV).`
  })),
  before: Type21.Optional(Type21.String({
    pattern: "^-?\\d{1,15}\\.[a-z_]{1,32}\\.\\d{1,10}$",
    description: "Paging: the `cursor` of the last entry of the previous page."
  })),
  format: Type21.Optional(StringEnum(["json", "csv"], "json (default), or csv: the same entries as a CSV file."))
});
var JournalCsvQuery = Type21.Omit(JournalQuery, ["format"]);

// dist/records/routes.js
var entryJson = (r) => ({ ...r, at: isoOf(r.at), cursor: cursorText(r) });
var recordRoutes = async (app, { records, config }) => {
  const { calibrations: calibrations2, notes: notes2, journal } = records;
  const whoIs = (request) => config.authMode === "enforced" ? request.principal?.username ?? null : null;
  const sendCsv = (reply, prototypeId, lines) => reply.type("text/csv; charset=utf-8").header("Content-Disposition", `attachment; filename="prototype_${prototypeId}_journal.csv"`).send(Readable2.from(lines, { objectMode: false }));
  app.post("/sensors/:sensor_id/calibrations", {
    config: { access: "modify" },
    schema: {
      ...recordDocs.calibrate,
      params: SensorIdParams,
      body: CalibrationBody,
      response: { 200: Calibration, ...errorResponses(404, 422) }
    },
    handler: (request) => calibrations2.record(request.params.sensor_id, request.body, whoIs(request))
  });
  app.get("/sensors/:sensor_id/calibrations", {
    config: { access: "read" },
    schema: {
      ...recordDocs.calibrations,
      params: SensorIdParams,
      querystring: CalibrationListQuery,
      response: { 200: Type22.Array(Calibration), ...errorResponses(404, 422) }
    },
    handler: (request) => calibrations2.list(request.params.sensor_id, request.query.limit ?? 100)
  });
  app.post("/prototypes/:prototype_id/notes", {
    config: { access: "modify" },
    schema: { ...recordDocs.postNote, params: PrototypeIdParams, body: NoteBody, response: { 200: Note, ...errorResponses(404, 422) } },
    handler: (request) => notes2.create(request.params.prototype_id, request.body, whoIs(request))
  });
  app.get("/notes", {
    config: { access: "read" },
    schema: { ...recordDocs.notes, querystring: NoteListQuery, response: { 200: Type22.Array(Note), ...errorResponses(422) } },
    handler: (request) => notes2.list(request.query)
  });
  app.get("/notes/:note_id", {
    config: { access: "read" },
    schema: { ...recordDocs.getNote, params: NoteIdParams, response: { 200: Note, ...errorResponses(404, 422) } },
    handler: (request) => notes2.get(request.params.note_id)
  });
  app.patch("/notes/:note_id", {
    config: { access: "modify" },
    schema: { ...recordDocs.patchNote, params: NoteIdParams, body: NotePatch, response: { 200: Note, ...errorResponses(404, 422) } },
    handler: (request) => notes2.update(request.params.note_id, request.body)
  });
  app.delete("/notes/:note_id", {
    config: { access: "modify" },
    schema: { ...recordDocs.deleteNote, params: NoteIdParams, response: { 204: Deleted, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      await notes2.remove(request.params.note_id);
      return reply.code(204).send();
    }
  });
  app.get("/prototypes/:prototype_id/journal", {
    config: { access: "read" },
    schema: {
      ...recordDocs.journal,
      params: PrototypeIdParams,
      querystring: JournalQuery,
      produces: ["application/json", "text/csv"],
      response: { 200: Type22.Array(JournalEntry), ...errorResponses(404, 422) }
    },
    handler: async (request, reply) => {
      const { prototype_id } = request.params;
      if (request.query.format === "csv")
        return sendCsv(reply, prototype_id, await journal.csv(prototype_id, request.query));
      return (await journal.page(prototype_id, request.query)).map(entryJson);
    }
  });
  app.get("/prototypes/:prototype_id/journal.csv", {
    config: { access: "read" },
    schema: {
      ...recordDocs.journalCsv,
      params: PrototypeIdParams,
      querystring: JournalCsvQuery,
      produces: ["text/csv"],
      response: errorResponses(404, 422)
    },
    handler: async (request, reply) => sendCsv(reply, request.params.prototype_id, await journal.csv(request.params.prototype_id, request.query))
  });
};
var routes_default9 = recordRoutes;

// dist/records/index.js
async function register14(app, deps) {
  const { store, bus, now, log, config } = deps;
  const serviceDeps = { store, bus, now, log };
  const records = {
    calibrations: calibrationService(serviceDeps),
    notes: noteService(serviceDeps),
    journal: journalService(serviceDeps)
  };
  const alerts = calibrationAlerts({
    store,
    bus,
    now,
    timers: deps.alertsOptions?.timers ?? systemTimers,
    log,
    webhookUrls: config.alertWebhookUrls
  });
  await alerts.start();
  app.decorate("recordsSettled", () => alerts.idle());
  await app.register(routes_default9, { records, config });
  app.addHook("onClose", () => alerts.stop());
  return { records, alerts };
}

// dist/sensors/routes.js
init_schema_common();
init_measurement();
import { Type as Type23 } from "@sinclair/typebox";

// dist/sensors/docs.js
var SENSORS2 = "Sensors";
var sensorDocs = {
  post: doc(SENSORS2, "Post Sensor", "postSensor", "Registers a sensor on an existing prototype. 404 when the prototype does not exist. valid_min, valid_max, stale_after and stuck_after are optional (null: the type\u2019s valid range, STALE_AFTER, stuck detection off); 422 when valid_min > valid_max or a time in seconds is negative. calibration_interval (days, more than 0 and at most 3650; null: no reminder) sets the calibration reminder: calibration_due is calibrated_at + the interval, or, for a sensor never calibrated, the moment the interval was set (due at once); calibrated_at and calibration_due are the service\u2019s own (see POST /sensors/{sensor_id}/calibrations)."),
  byPrototype: doc(SENSORS2, "Sensors", "sensors", "The prototype's sensors, by sensor_id. 404 when the prototype does not exist."),
  patch: doc(SENSORS2, "Update Sensors", "updateSensors", "Partial bulk update: each element names a sensor_id and the fields to change. Thresholds and valid_min \u2264 valid_max are checked on the merged result. All or nothing: one bad element and nothing is written. A changed calibration_interval moves calibration_due (calibrated_at + the interval; never calibrated: due from the moment an interval was set) and raises or clears the calibration_due alert to match."),
  remove: doc(SENSORS2, "Delete Sensor", "deleteSensor", "Deletes the sensor. 204 without a body; 404 when it does not exist. While it has measurements or actuators, or actuators use it as an interlock: 409 with a detail that counts them, and the counts as data in `dependents` (`sensors` is 0; `actuators` counts both kinds), unless cascade=true, which deletes them with it in one transaction: the actuators it drives are deleted, the interlock entries naming it are removed and the actuators that had them are disabled (enabled false), so no pump keeps running without its interlock.")
};

// dist/sensors/routes.js
var sensorRoutes = async (app, { services: { sensors } }) => {
  app.post("/sensors/", {
    config: { access: "modify" },
    schema: { ...sensorDocs.post, body: SensorBase, response: { 200: Sensor, ...errorResponses(404, 422) } },
    handler: (request) => sensors.create(request.body)
  });
  app.get("/sensors/:prototype_id", {
    config: { access: "read" },
    schema: { ...sensorDocs.byPrototype, params: PrototypeIdParams, response: { 200: Type23.Array(Sensor), ...errorResponses(404, 422) } },
    handler: (request) => sensors.listByPrototype(request.params.prototype_id)
  });
  app.patch("/sensors", {
    config: { access: "modify" },
    schema: { ...sensorDocs.patch, body: Type23.Array(SensorPatch), response: { 200: Type23.Array(Sensor), ...errorResponses(404, 422) } },
    handler: (request) => sensors.patch(request.body)
  });
  app.delete("/sensors/:sensor_id", {
    config: { access: "modify" },
    schema: {
      ...sensorDocs.remove,
      params: SensorIdParams,
      querystring: CascadeQuery,
      response: { 204: Deleted, 409: Type23.Ref(RemovalRefusedBody), ...errorResponses(404, 422) }
    },
    handler: async (request, reply) => {
      await sensors.remove(request.params.sensor_id, request.query.cascade);
      return reply.code(204).send();
    }
  });
};
var routes_default10 = sensorRoutes;

// dist/sensors/index.js
async function register15(app, deps) {
  await app.register(routes_default10, deps);
}

// dist/core/bulk-patch.js
init_errors();
function merge2(current, patch, fields) {
  const merged = { ...current };
  for (const field of fields) {
    const value = patch[field];
    if (value !== void 0)
      merged[field] = value;
  }
  return merged;
}
async function patchAll(patches, plan) {
  await plan.rows.lock(patches.map(plan.idOf));
  const updated = [];
  for (const [index, patch] of patches.entries()) {
    const id = plan.idOf(patch);
    const current = await plan.rows.get(id);
    if (!current)
      throw new NotFound(plan.notFound(id));
    const merged = merge2(current, patch, plan.fields);
    plan.check?.(merged, index);
    const parentId = merged[plan.parent.field];
    if (parentId !== current[plan.parent.field] && !await plan.parent.exists(Number(parentId))) {
      throw new NotFound(plan.parent.notFound(Number(parentId)));
    }
    updated.push(await plan.rows.update(merged));
  }
  return updated;
}

// dist/actuators/service.js
init_errors();

// dist/actuators/safety-settings.js
function safetyDefaults(actuator) {
  return {
    max_doses_per_hour: actuator.max_doses_per_hour ?? null,
    max_seconds_per_day: actuator.max_seconds_per_day ?? null,
    min_response: actuator.min_response ?? 0,
    response_delay: actuator.response_delay ?? null,
    // Left out: the default; null: the client turned lockout off.
    lockout_after: actuator.lockout_after === void 0 ? DEFAULT_LOCKOUT_AFTER : actuator.lockout_after,
    controller_timeout: actuator.controller_timeout ?? null,
    flow_ml_per_s: actuator.flow_ml_per_s ?? null,
    max_ml_per_day: actuator.max_ml_per_day ?? null,
    stock_ml: actuator.stock_ml ?? null,
    stock_low_ml: actuator.stock_low_ml ?? null
  };
}
function volumeIssues(settings, loc) {
  if (settings.flow_ml_per_s !== null)
    return [];
  const issues = [];
  if (settings.max_ml_per_day !== null) {
    issues.push({ loc: [...loc, "max_ml_per_day"], msg: "max_ml_per_day needs flow_ml_per_s", type: "volume_needs_flow" });
  }
  if (settings.stock_ml !== null) {
    issues.push({ loc: [...loc, "stock_ml"], msg: "stock_ml needs flow_ml_per_s", type: "volume_needs_flow" });
  }
  return issues;
}
function normalInterlocks(interlocks) {
  return interlocks.map((i) => ({ sensor_id: i.sensor_id, block_below: i.block_below ?? null, block_above: i.block_above ?? null }));
}
function interlockIssues(interlocks, loc) {
  const issues = [];
  interlocks.forEach((interlock, index) => {
    const at = [...loc, index];
    if (interlock.block_below === null && interlock.block_above === null) {
      issues.push({ loc: at, msg: "An interlock needs block_below, block_above or both", type: "interlock_no_bound" });
    } else if (interlock.block_below !== null && interlock.block_above !== null && interlock.block_below > interlock.block_above) {
      issues.push({ loc: at, msg: "An interlock needs block_below \u2264 block_above", type: "interlock_bounds_crossed" });
    }
  });
  return issues;
}

// dist/actuators/service.js
var isPromise3 = (value) => typeof value?.then === "function";
var PATCHABLE = Object.keys(ActuatorBase.properties);
var actuatorNotFound = (id) => `Actuator ${id} not found`;
var sensorNotFound2 = (id) => `Sensor ${id} not found`;
function checkSettings(settings, loc) {
  const issues = [...interlockIssues(settings.interlocks, [...loc, "interlocks"]), ...volumeIssues(settings, loc)];
  if (issues.length > 0)
    throw new InvalidInput(...issues);
}
async function checkInterlockSensors(tx, interlocks) {
  const named = interlocks.map((i) => i.sensor_id);
  const existing = await tx.sensors.existing(named);
  const missing = named.find((id) => !existing.has(id));
  if (missing !== void 0)
    throw new NotFound(sensorNotFound2(missing));
}
async function withInterlocks(tx, actuatorId) {
  const actuator = await tx.actuators.get(actuatorId);
  return actuator && { ...actuator, interlocks: await tx.interlocks.of(actuatorId) };
}
function actuatorService({ store, bus, now }, { decisions, contact }) {
  const noted = (actuatorId, answer) => {
    if (answer)
      contact.heardFrom(actuatorId);
    return answer;
  };
  function polledState(actuatorId) {
    const answer = decisions.of(actuatorId);
    return isPromise3(answer) ? answer.then((a) => noted(actuatorId, a)) : noted(actuatorId, answer);
  }
  const view = (a) => contact.withLastPolled(a);
  return {
    /** Registers a pump on an existing sensor; last_activated starts at the creation time. */
    async create(actuator) {
      const interlocks = normalInterlocks(actuator.interlocks ?? []);
      const settings = safetyDefaults(actuator);
      checkSettings({ ...settings, interlocks }, ["body"]);
      const created = await store.transaction(async (tx) => {
        if (!await tx.sensors.get(actuator.sensor_id))
          throw new NotFound(sensorNotFound2(actuator.sensor_id));
        await checkInterlockSensors(tx, interlocks);
        const row = await tx.actuators.create({
          actuator_type: actuator.actuator_type,
          sensor_id: actuator.sensor_id,
          condition_value: actuator.condition_value,
          activation_condition: actuator.activation_condition,
          activation_period: actuator.activation_period,
          activation_duration: actuator.activation_duration,
          ...settings,
          actuator_name: actuator.actuator_name ?? null,
          enabled: actuator.enabled ?? true,
          last_activated: now()
        });
        await tx.interlocks.replace(row.actuator_id, interlocks);
        return { ...row, interlocks };
      });
      bus.publish("actuator", { action: "created", actuator: created });
      return view(created);
    },
    /**
     * Partial bulk update of the settings, all or nothing; the rules are checked on the merged
     * result. Interlocks named in a patch replace the actuator's interlocks.
     */
    async patch(patches) {
      const updated = await store.transaction((tx) => patchAll(patches, {
        idOf: (patch) => patch.actuator_id,
        fields: PATCHABLE,
        rows: {
          lock: tx.actuators.lock,
          get: (id) => withInterlocks(tx, id),
          async update(merged) {
            const interlocks = normalInterlocks(merged.interlocks);
            await checkInterlockSensors(tx, interlocks);
            const row = await tx.actuators.update(merged);
            await tx.interlocks.replace(row.actuator_id, interlocks);
            return { ...row, interlocks };
          }
        },
        notFound: actuatorNotFound,
        check: (merged, index) => checkSettings({ ...merged, interlocks: normalInterlocks(merged.interlocks) }, ["body", index]),
        parent: {
          field: "sensor_id",
          exists: async (id) => await tx.sensors.get(id) !== void 0,
          notFound: sensorNotFound2
        }
      }));
      for (const actuator of updated)
        bus.publish("actuator", { action: "updated", actuator });
      return updated.map(view);
    },
    /**
     * What a controller polls (API.md §3.3, §14): the decision now and its JSON text, with the
     * read noted as the controller's contact (`last_polled`). At once, without a promise, when the
     * inputs are kept in memory: the fast path in front of the routes answers with it. Undefined
     * for an unknown actuator.
     */
    polledState,
    /** `GET /actuators/{id}/state`: the decision now and its JSON text, noted as a poll; 404 for an unknown actuator. */
    async state(actuatorId) {
      const answer = await polledState(actuatorId);
      if (!answer)
        throw new NotFound(actuatorNotFound(actuatorId));
      return answer;
    },
    /** The decision now, not noted as a poll (what the service itself publishes). */
    async decision(actuatorId) {
      return (await decisions.of(actuatorId))?.decision;
    },
    /**
     * The controller's report that the pump ran (HTTP or MQTT): last_activated becomes now, and
     * the dose is recorded in the same transaction with the actuator's activation_duration, its
     * sensor's newest reading and its volume at the flow of the moment (API.md §14, §15); the
     * volume is taken from the bottle's stock in that transaction too, with the actuator's row
     * locked, so that run reports through several instances at once each take theirs.
     */
    async markActivated(actuatorId) {
      const done = await store.transaction(async (tx) => {
        const at = now();
        const current = await tx.actuators.getForUpdate(actuatorId);
        if (!current)
          return void 0;
        const volume = doseVolume(current.activation_duration, current.flow_ml_per_s);
        const marked = await tx.actuators.markActivated(actuatorId, at, stockAfterDose(current.stock_ml, volume));
        if (!marked)
          return void 0;
        const newest = await tx.measurements.last(marked.sensor_id);
        const dose = await tx.activations.record({
          actuator_id: actuatorId,
          activated_at: at,
          duration: marked.activation_duration,
          value_before: newest?.value ?? null,
          volume_ml: volume
        });
        return { actuator: { ...marked, interlocks: await tx.interlocks.of(actuatorId) }, dose };
      });
      if (!done)
        throw new NotFound(actuatorNotFound(actuatorId));
      contact.heardFrom(actuatorId);
      bus.publish("actuator", { action: "activated", actuator: done.actuator });
      bus.publish("dose", { dose: done.dose });
      return view(done.actuator);
    },
    /** The actuator's recorded doses, newest first (API.md §14). */
    async activations(actuatorId, query) {
      const window = windowOf({ start_time: query.start_time, end_time: query.end_time }, now());
      if (!await store.actuators.get(actuatorId))
        throw new NotFound(actuatorNotFound(actuatorId));
      return store.activations.list(actuatorId, window, query.limit ?? 100, query.before);
    },
    /**
     * Ends a lockout (API.md §14): clears it and the count of unanswered doses, and records the
     * unlock for the journal. `unlockedBy` is who asked (null in open mode); it travels with the
     * change, for the alerts to record.
     */
    async unlock(actuatorId, unlockedBy) {
      const actuator = await store.transaction(async (tx) => {
        const unlocked = await tx.actuators.unlock(actuatorId);
        if (unlocked === void 0)
          throw new NotFound(actuatorNotFound(actuatorId));
        if (unlocked === "not-locked")
          throw new Conflict(`Actuator ${actuatorId} is not locked out`);
        await tx.safetyEvents.record({ kind: "unlock", at: now(), actuator_id: actuatorId, prototype_id: null, author: unlockedBy });
        return { ...unlocked, interlocks: await tx.interlocks.of(actuatorId) };
      });
      bus.publish("actuator", { action: "updated", actuator, unlockedBy });
      return view(actuator);
    },
    async remove(actuatorId) {
      if (!await store.remove.actuator(actuatorId))
        throw new NotFound(actuatorNotFound(actuatorId));
      bus.publish("actuator", { action: "deleted", actuatorId });
    },
    /** The prototype's actuators (those whose sensor belongs to it), by actuator_id. */
    async listByPrototype(prototypeId) {
      if (!await store.prototypes.exists(prototypeId))
        throw new NotFound(`Prototype ${prototypeId} not found`);
      const actuators = await store.actuators.listByPrototype(prototypeId);
      const interlocks = await store.interlocks.ofActuators(actuators.map((a) => a.actuator_id));
      return actuators.map((a) => view({ ...a, interlocks: interlocks.get(a.actuator_id) ?? [] }));
    }
  };
}

// dist/actuators/controller-contact.js
var FLUSH_EVERY_MS = 1e4;
var watches = (a) => a.enabled === true && a.controller_timeout !== null;
function controllerContact({ store, bus, now, timers, log }) {
  const noted = /* @__PURE__ */ new Map();
  let unwritten = [];
  let flushAlarm;
  let flushing;
  const watched = /* @__PURE__ */ new Map();
  const unsubscribe = [];
  let stopped = false;
  const lastPolled = (actuator) => {
    const mine = noted.get(actuator.actuator_id)?.at;
    const stored = actuator.last_polled ?? null;
    if (mine === void 0)
      return stored;
    return stored === null || mine > stored ? mine : stored;
  };
  function toWrite(actuatorId, note) {
    note.unwritten = true;
    unwritten.push(actuatorId);
    scheduleFlush();
  }
  async function flush() {
    flushAlarm = void 0;
    const batch = /* @__PURE__ */ new Map();
    for (const id of unwritten) {
      const note = noted.get(id);
      if (note?.unwritten) {
        note.unwritten = false;
        batch.set(id, note.at);
      }
    }
    unwritten = [];
    if (batch.size === 0)
      return;
    try {
      await store.transaction((tx) => tx.actuators.notePolled(batch));
    } catch (error) {
      log.warn({ err: error, actuators: batch.size }, "could not write when controllers last polled; trying again");
      for (const id of batch.keys()) {
        const note = noted.get(id);
        if (note && !note.unwritten)
          toWrite(id, note);
      }
    }
  }
  function scheduleFlush() {
    if (flushAlarm !== void 0 || stopped)
      return;
    flushAlarm = timers.set(() => {
      flushing = flush().finally(() => flushing = void 0);
    }, FLUSH_EVERY_MS);
  }
  function offlineAt(w) {
    const { actuator } = w;
    return watches(actuator) ? controllerOfflineAt(lastPolled(actuator), actuator.last_activated, actuator.controller_timeout) : null;
  }
  function arm(w) {
    if (w.alarm !== void 0)
      timers.clear(w.alarm);
    w.alarm = void 0;
    const at = offlineAt(w);
    if (at === null || stopped || w.offline)
      return;
    w.alarm = timers.set(() => {
      w.alarm = void 0;
      void ring(w);
    }, at - now());
  }
  async function ring(w) {
    const id = w.actuator.actuator_id;
    try {
      const stored = await store.actuators.get(id);
      if (watched.get(id) !== w || !stored)
        return;
      w.actuator = {
        ...w.actuator,
        last_polled: stored.last_polled,
        last_activated: Math.max(stored.last_activated, w.actuator.last_activated)
      };
    } catch (error) {
      log.warn({ err: error, actuatorId: id }, "could not read back when the controller last polled");
      if (watched.get(id) !== w)
        return;
    }
    const at = offlineAt(w);
    if (at === null || w.offline)
      return;
    if (now() < at)
      return arm(w);
    w.offline = true;
    bus.publish("controller", { actuatorId: id, offline: true, at });
  }
  function back(w, at) {
    if (!w.offline)
      return;
    w.offline = false;
    bus.publish("controller", { actuatorId: w.actuator.actuator_id, offline: false, at });
  }
  function track(actuator) {
    const known = watched.get(actuator.actuator_id);
    const w = known ?? { actuator, offline: false };
    w.actuator = actuator;
    watched.set(actuator.actuator_id, w);
    if (!watches(actuator))
      back(w, now());
    arm(w);
  }
  function forget(actuatorId) {
    const w = watched.get(actuatorId);
    if (w?.alarm !== void 0)
      timers.clear(w.alarm);
    watched.delete(actuatorId);
    noted.delete(actuatorId);
  }
  return {
    /** Notes a state read or a run report now: in memory; written in the next batch. */
    heardFrom(actuatorId) {
      const at = now();
      let note = noted.get(actuatorId);
      if (note === void 0) {
        note = { at, unwritten: false };
        noted.set(actuatorId, note);
      } else
        note.at = at;
      if (!note.unwritten)
        toWrite(actuatorId, note);
      const w = watched.get(actuatorId);
      if (w?.offline) {
        back(w, at);
        arm(w);
      }
    },
    lastPolled,
    /** The actuator with `last_polled` as known here (the stored one, or a later poll noted since). */
    withLastPolled(actuator) {
      return { ...actuator, last_polled: lastPolled(actuator) };
    },
    /** Reads the actuators and sets their alarms, then follows their changes. */
    async start() {
      unsubscribe.push(bus.subscribe("actuator", (change) => {
        if (change.action === "deleted")
          forget(change.actuatorId);
        else
          track(change.actuator);
      }), bus.subscribe("controller", (change) => {
        const w = watched.get(change.actuatorId);
        if (!w)
          return;
        w.offline = change.offline;
        arm(w);
      }));
      for (const actuator of await store.actuators.all())
        if (!watched.has(actuator.actuator_id))
          track(actuator);
    },
    /** Stops the alarms and writes what is noted. */
    async stop() {
      stopped = true;
      for (const stop of unsubscribe)
        stop();
      for (const w of watched.values())
        if (w.alarm !== void 0)
          timers.clear(w.alarm);
      if (flushAlarm !== void 0)
        timers.clear(flushAlarm);
      flushAlarm = void 0;
      await flushing;
      await flush();
    }
  };
}

// dist/actuators/decision-inputs.js
var DAY_MS3 = DAY_SECONDS * 1e3;
var READ_ATTEMPTS = 5;
var isNewer3 = (row, than) => row.timestamp > than.timestamp || row.timestamp === than.timestamp && row.measurement_id > than.measurement_id;
function lazyMap(read, changed) {
  const values = /* @__PURE__ */ new Map();
  const reading = /* @__PURE__ */ new Map();
  const generation = /* @__PURE__ */ new Map();
  function drop(key) {
    values.delete(key);
    generation.set(key, (generation.get(key) ?? 0) + 1);
    changed();
  }
  async function readFresh(key) {
    for (let attempt = 1; ; attempt++) {
      const before = generation.get(key) ?? 0;
      const value = await read(key);
      if ((generation.get(key) ?? 0) === before || attempt >= READ_ATTEMPTS) {
        if (value !== void 0) {
          values.set(key, value);
          changed();
        }
        return value;
      }
    }
  }
  return {
    values,
    peek: (key) => values.get(key),
    get(key) {
      const known = values.get(key);
      if (known !== void 0)
        return known;
      let pending = reading.get(key);
      if (!pending) {
        pending = readFresh(key).finally(() => reading.delete(key));
        reading.set(key, pending);
      }
      return pending;
    },
    /** Forgets the value; a read under way starts over. */
    drop,
    /** Whether a change to `key` must wait for a read (none kept, one under way). */
    isReading: (key) => reading.has(key),
    clear() {
      for (const key of [...values.keys(), ...reading.keys()])
        drop(key);
    }
  };
}
function decisionInputs({ store, bus, now, staleAfterMs, processStartedAt, log }) {
  const listeners = /* @__PURE__ */ new Set();
  let firstHeardId = Number.POSITIVE_INFINITY;
  const generatedSince = /* @__PURE__ */ new Set();
  let epoch = 0;
  const moved = () => {
    epoch++;
  };
  const actuators = lazyMap(async (actuatorId) => {
    const actuator = await store.actuators.get(actuatorId);
    if (!actuator)
      return void 0;
    const [interlocks, doses2] = await Promise.all([store.interlocks.of(actuatorId), store.activations.since(actuatorId, now() - DAY_MS3)]);
    return { actuator: { ...actuator, interlocks }, doses: doses2.map(doseRecord) };
  }, moved);
  const sensors = lazyMap(async (sensorId) => {
    const settings = await store.sensors.get(sensorId);
    if (!settings)
      return void 0;
    if (settings.stuck_after === null)
      return { settings, newest: await store.measurements.last(sensorId) ?? null, run: null };
    const found = await store.measurements.newestRun(sensorId, STUCK_MIN_READINGS);
    return { settings, newest: found?.newest ?? null, run: found?.run ?? null };
  }, moved);
  const pauses = lazyMap(async (prototypeId) => {
    const prototype = await store.prototypes.get(prototypeId);
    return prototype && { until: prototype.paused_until };
  }, moved);
  function tell(actuatorIds, actuatorChanged2 = false) {
    if (actuatorIds.length === 0)
      return;
    for (const listener of [...listeners])
      listener(actuatorIds, actuatorChanged2);
  }
  const readersOf = (sensorId) => [...actuators.values.values()].filter(({ actuator }) => actuator.sensor_id === sensorId || actuator.interlocks.some((i) => i.sensor_id === sensorId)).map(({ actuator }) => actuator.actuator_id);
  const actuatorsOfPrototype = (prototypeId) => [...actuators.values.values()].filter(({ actuator }) => sensors.peek(actuator.sensor_id)?.settings.prototype_id === prototypeId).map(({ actuator }) => actuator.actuator_id);
  function dropSensor(sensorId) {
    sensors.drop(sensorId);
    const readers = readersOf(sensorId);
    if (readers.length === 0)
      return;
    const read = sensors.get(sensorId);
    if (read instanceof Promise)
      read.catch((error) => log.warn({ err: error, sensorId }, "reading a sensor for the dosing decision failed"));
    tell(readers);
  }
  function readingsStored(rows) {
    const touched = /* @__PURE__ */ new Set();
    for (const row of rows) {
      if (row.measurement_id < firstHeardId) {
        firstHeardId = row.measurement_id;
        moved();
      }
      if (sensors.isReading(row.sensor_id)) {
        sensors.drop(row.sensor_id);
        continue;
      }
      const entry2 = sensors.peek(row.sensor_id);
      if (!entry2)
        continue;
      if (entry2.newest && !isNewer3(row, entry2.newest)) {
        if (entry2.settings.stuck_after !== null && entry2.run && !(row.timestamp < entry2.run.since))
          sensors.drop(row.sensor_id);
        touched.add(row.sensor_id);
        continue;
      }
      entry2.run = entry2.newest && entry2.run && row.value === entry2.newest.value ? { count: Math.min(entry2.run.count + 1, STUCK_MIN_READINGS), since: Math.min(entry2.run.since, row.timestamp) } : { count: 1, since: row.timestamp };
      entry2.newest = row;
      touched.add(row.sensor_id);
    }
    const readers = /* @__PURE__ */ new Set();
    for (const sensorId of touched)
      for (const id of readersOf(sensorId))
        readers.add(id);
    tell([...readers]);
  }
  function sensorChanged(sensor) {
    const entry2 = sensors.peek(sensor.sensor_id);
    if (sensors.isReading(sensor.sensor_id) || entry2 && entry2.settings.stuck_after !== sensor.stuck_after) {
      dropSensor(sensor.sensor_id);
      return;
    }
    if (!entry2)
      return;
    entry2.settings = sensor;
    tell(readersOf(sensor.sensor_id));
  }
  function actuatorChanged(actuator) {
    const id = actuator.actuator_id;
    const entry2 = actuators.peek(id);
    if (actuators.isReading(id) || entry2 && !Array.isArray(actuator.interlocks)) {
      actuators.drop(id);
    } else if (entry2) {
      entry2.actuator = { ...actuator, interlocks: actuator.interlocks ?? entry2.actuator.interlocks };
    }
    tell([id], true);
  }
  function doseRecorded(dose) {
    if (actuators.isReading(dose.actuator_id))
      actuators.drop(dose.actuator_id);
    actuators.peek(dose.actuator_id)?.doses.push(doseRecord(dose));
    tell([dose.actuator_id]);
  }
  const unsubscribe = [
    bus.subscribe("measurements", ({ rows }) => readingsStored(rows)),
    bus.subscribe("measurementDeleted", ({ measurement }) => {
      const entry2 = sensors.peek(measurement.sensor_id);
      const inRun = entry2?.settings.stuck_after !== null && entry2?.run && !(measurement.timestamp < entry2.run.since);
      if (!entry2 || entry2.newest?.measurement_id === measurement.measurement_id || inRun || sensors.isReading(measurement.sensor_id))
        dropSensor(measurement.sensor_id);
    }),
    bus.subscribe("generated", ({ sensorIds }) => {
      for (const sensorId of sensorIds) {
        generatedSince.add(sensorId);
        dropSensor(sensorId);
      }
    }),
    bus.subscribe("sensor", (change) => {
      if (change.action !== "deleted")
        return sensorChanged(change.sensor);
      const readers = readersOf(change.sensorId);
      sensors.drop(change.sensorId);
      generatedSince.delete(change.sensorId);
      for (const id of readers)
        actuators.drop(id);
      tell(readers);
    }),
    bus.subscribe("actuator", (change) => {
      if (change.action === "deleted") {
        actuators.drop(change.actuatorId);
        tell([change.actuatorId], true);
      } else
        actuatorChanged(change.actuator);
    }),
    bus.subscribe("dose", ({ dose }) => doseRecorded(dose)),
    bus.subscribe("prototype", (change) => {
      if (change.action === "deleted")
        return pauses.drop(change.prototypeId);
      const id = change.prototype.prototype_id;
      if (pauses.isReading(id))
        pauses.drop(id);
      const entry2 = pauses.peek(id);
      if (entry2)
        entry2.until = change.prototype.paused_until === null ? null : Date.parse(change.prototype.paused_until);
      tell(actuatorsOfPrototype(id));
    })
  ];
  const receivedAt = (sensorId, newest) => newest.measurement_id >= firstHeardId || generatedSince.has(sensorId) ? processStartedAt : Number.NEGATIVE_INFINITY;
  function sensorInput(entry2) {
    const { settings, newest, run } = entry2;
    return {
      settings,
      newest: newest && { value: newest.value, timestamp: newest.timestamp, received_at: receivedAt(settings.sensor_id, newest) },
      run
    };
  }
  function fromMemory(actuatorId, at, withoutMissingInterlocks = false) {
    const entry2 = actuators.peek(actuatorId);
    if (!entry2)
      return null;
    const { actuator } = entry2;
    const own = sensors.peek(actuator.sensor_id);
    if (!own)
      return null;
    const pause = pauses.peek(own.settings.prototype_id);
    if (!pause)
      return null;
    const interlockSensors = [];
    for (const interlock of actuator.interlocks) {
      const sensor = sensors.peek(interlock.sensor_id);
      if (sensor)
        interlockSensors.push(sensorInput(sensor));
      else if (!withoutMissingInterlocks)
        return null;
    }
    while (entry2.doses.length > 0 && isInWindow(entry2.doses[0].activated_at, at, DAY_SECONDS) === false)
      entry2.doses.shift();
    return {
      actuator: safetySettings(actuator),
      sensor: sensorInput(own),
      interlockSensors,
      doses: entry2.doses,
      pausedUntil: pause.until,
      processStartedAt,
      now: at,
      staleAfterDefaultMs: staleAfterMs
    };
  }
  async function readAndBuild(actuatorId) {
    for (let attempt = 1; ; attempt++) {
      const entry2 = await actuators.get(actuatorId);
      if (!entry2)
        return void 0;
      const own = await sensors.get(entry2.actuator.sensor_id);
      if (!own)
        return void 0;
      await Promise.all([pauses.get(own.settings.prototype_id), ...entry2.actuator.interlocks.map((i) => sensors.get(i.sensor_id))]);
      const input = fromMemory(actuatorId, now());
      if (input)
        return input;
      if (attempt >= READ_ATTEMPTS)
        return fromMemory(actuatorId, now(), true) ?? void 0;
    }
  }
  return {
    /**
     * What the decision reads for this actuator now: at once from memory when everything is
     * kept (every poll after the first), else after reading the missing pieces. Undefined for an
     * actuator that does not exist.
     */
    input(actuatorId) {
      const input = fromMemory(actuatorId, now());
      if (input !== null)
        return input;
      return readAndBuild(actuatorId);
    },
    /** The actuator as kept (settings, interlocks, lockout), if it is. */
    actuator(actuatorId) {
      return actuators.peek(actuatorId)?.actuator;
    },
    /**
     * Moves whenever what is kept changes without the listeners being told which actuators it
     * concerns: an input built before it moved may be out of date.
     */
    epoch: () => epoch,
    /** Listens to changes of the inputs; the function returned stops listening. */
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Forgets everything kept (changes may have been missed: the relay lost its connection). */
    forgetAll() {
      const ids = [...actuators.values.keys()];
      actuators.clear();
      sensors.clear();
      pauses.clear();
      log.info({ actuators: ids.length }, "dosing decision inputs read again");
      tell(ids);
    },
    stop() {
      for (const stop of unsubscribe)
        stop();
      listeners.clear();
      moved();
    }
  };
}
var safetySettings = (actuator) => ({
  enabled: actuator.enabled,
  condition_value: actuator.condition_value,
  activation_condition: actuator.activation_condition,
  activation_period: actuator.activation_period,
  activation_duration: actuator.activation_duration,
  last_activated: actuator.last_activated,
  max_doses_per_hour: actuator.max_doses_per_hour,
  max_seconds_per_day: actuator.max_seconds_per_day,
  max_ml_per_day: actuator.max_ml_per_day,
  flow_ml_per_s: actuator.flow_ml_per_s,
  stock_ml: actuator.stock_ml,
  lockout: actuator.lockout_since === null ? null : { since: actuator.lockout_since, reason: actuator.lockout_reason ?? "" },
  interlocks: actuator.interlocks
});
var doseRecord = (dose) => ({
  activated_at: dose.activated_at,
  duration: dose.duration,
  volume_ml: dose.volume_ml
});

// dist/actuators/kept-decisions.js
init_json_text();
var isPromise4 = (value) => typeof value?.then === "function";
var answerOf = (decision) => ({ decision, json: activationJson(decision) });
function keptDecisions({ inputs, now }) {
  const kept = /* @__PURE__ */ new Map();
  inputs.onChange((actuatorIds) => {
    for (const id of actuatorIds)
      kept.delete(id);
  });
  function decideNow(actuatorId) {
    const epoch = inputs.epoch();
    const input = inputs.input(actuatorId);
    if (isPromise4(input))
      return input.then((read) => read && answerOf(decide(read)));
    if (input === void 0) {
      kept.delete(actuatorId);
      return void 0;
    }
    const decision = decide(input);
    const entry2 = {
      decision,
      json: activationJson(decision),
      epoch,
      from: input.now,
      until: nextDecisionChange(input) ?? Number.POSITIVE_INFINITY
    };
    kept.set(actuatorId, entry2);
    return entry2;
  }
  return {
    /**
     * The actuator's decision now, and its JSON text: the kept one while it holds, else made
     * again (at once when the inputs are kept). Undefined for an actuator that does not exist.
     */
    of(actuatorId) {
      const entry2 = kept.get(actuatorId);
      if (entry2 !== void 0 && entry2.epoch === inputs.epoch()) {
        const at = now();
        if (entry2.from <= at && at < entry2.until)
          return entry2;
      }
      return decideNow(actuatorId);
    }
  };
}

// dist/doses/service.js
init_errors();

// dist/doses/dose-buckets.js
init_bucket_sizes();
init_duration();
var DOSE_BUCKET_SIZES = [HOUR2, DAY2];
function doseBucketSize(text2) {
  const size = parseBucketSize(text2, parseDuration);
  return DOSE_BUCKET_SIZES.find((kept) => kept === size);
}
function wholeBuckets(window, size) {
  const { start, end, endInclusive } = window;
  return {
    start: start === void 0 ? void 0 : bucketStart(start, size),
    end: end === void 0 ? void 0 : endInclusive ? bucketStart(end, size) + size : bucketCeil(end, size),
    endInclusive: false
  };
}
var sixDecimals = (x) => Math.round(x * 1e6) / 1e6;
function addDoses(buckets, doses2, size) {
  for (const dose of doses2) {
    const start = bucketStart(dose.activated_at, size);
    let last = buckets.at(-1);
    if (last === void 0 || last.start !== start) {
      last = { start, end: start + size, doses: 0, seconds: 0, volume_ml: null };
      buckets.push(last);
    }
    last.doses += 1;
    last.seconds = sixDecimals(last.seconds + dose.duration);
    if (dose.volume_ml !== null)
      last.volume_ml = sixDecimals((last.volume_ml ?? 0) + dose.volume_ml);
  }
}

// dist/doses/service.js
var PAGE = 5e3;
var actuatorNotFound2 = (id) => `Actuator ${id} not found`;
function doseService({ store, bus, now }, { contact }) {
  return {
    /**
     * The actuator's doses totalled per UTC hour or day, ascending, over the whole buckets the
     * window overlaps; buckets without doses left out.
     */
    async totals(actuatorId, query) {
      const size = doseBucketSize(query.bucket ?? "1d");
      if (size === void 0) {
        throw new InvalidInput({ loc: ["query", "bucket"], msg: "Input should be 1h or 1d", type: "enum" });
      }
      const window = wholeBuckets(windowOf(query, now()), size);
      if (!await store.actuators.get(actuatorId))
        throw new NotFound(actuatorNotFound2(actuatorId));
      const buckets = [];
      for (let page = await store.activations.amounts(actuatorId, window, PAGE); ; ) {
        addDoses(buckets, page, size);
        if (page.length < PAGE)
          return buckets;
        page = await store.activations.amounts(actuatorId, window, PAGE, page[page.length - 1]);
      }
    },
    /**
     * Records a refill: the bottle now holds `stockMl`, and who said so (null in open mode). The
     * actuator's row is locked meanwhile, so a dose reported at the same moment takes its volume
     * from one stock or the other, never from a stock it overwrites. A pump without a flow has no
     * stock to count down: refused (422), as setting `stock_ml` on it is.
     */
    async refill(actuatorId, stockMl, author) {
      const done = await store.transaction(async (tx) => {
        const current = await tx.actuators.getForUpdate(actuatorId);
        if (!current)
          throw new NotFound(actuatorNotFound2(actuatorId));
        if (current.flow_ml_per_s === null) {
          throw new InvalidInput({
            loc: ["body", "stock_ml"],
            msg: "stock_ml needs flow_ml_per_s: set the pump\u2019s flow first",
            type: "volume_needs_flow"
          });
        }
        const actuator = await tx.actuators.setStock(actuatorId, stockMl);
        if (!actuator)
          throw new NotFound(actuatorNotFound2(actuatorId));
        const refill = await tx.refills.record({ actuator_id: actuatorId, refilled_at: now(), stock_ml: stockMl, author });
        return { actuator: { ...actuator, interlocks: await tx.interlocks.of(actuatorId) }, refill };
      });
      bus.publish("actuator", { action: "updated", actuator: done.actuator, refill: done.refill });
      return contact.withLastPolled(done.actuator);
    }
  };
}

// dist/domain/buckets.js
function bucketCount(maxPoints) {
  return Math.max(1, Math.floor(maxPoints / 2));
}
var BucketLayout = class {
  first;
  count;
  span;
  constructor(first, last, count) {
    this.first = first;
    this.count = count;
    this.span = Math.max(1, last - first + 1);
  }
  /** The bucket of a timestamp within [first, last]. */
  of(timestamp) {
    return Math.min(this.count - 1, Math.floor((timestamp - this.first) * this.count / this.span));
  }
  /** The first timestamp that falls in `bucket` (for `bucket = count`: just past `last`). */
  startOf(bucket) {
    return this.first + Math.ceil(bucket * this.span / this.count);
  }
  /**
   * Consecutive runs of buckets expected to hold about `rowsPerSlice` of the window's `rows` each,
   * as time ranges [start, end): the store downsamples a long window slice by slice, so no single
   * query holds the connection (or, on SQLite, the event loop) for long.
   */
  slices(rows, rowsPerSlice) {
    const perSlice = Math.max(1, Math.floor(rowsPerSlice * this.count / Math.max(1, rows)));
    const out = [];
    for (let b = 0; b < this.count; b += perSlice) {
      out.push({ start: this.startOf(b), end: this.startOf(Math.min(this.count, b + perSlice)) });
    }
    return out;
  }
};

// dist/history/extremes.js
init_bucket_sizes();
var E = { start: 0, count: 1, minValue: 2, minTs: 3, minId: 4, maxValue: 5, maxTs: 6, maxId: 7 };
function extremesRowOf(m) {
  return [m.timestamp, 1, m.value, m.timestamp, m.measurement_id, m.value, m.timestamp, m.measurement_id];
}
var earlier2 = (aTs, aId, bTs, bId) => aTs < bTs || aTs === bTs && aId < bId;
function extremesPerBucket(rows, size) {
  const out = [];
  let start = Number.NaN;
  let lo;
  let hi;
  const flush = () => {
    if (!lo || !hi)
      return;
    const low = { id: lo[E.minId], ts: lo[E.minTs], value: lo[E.minValue] };
    const high = { id: hi[E.maxId], ts: hi[E.maxTs], value: hi[E.maxValue] };
    if (low.id === high.id)
      out.push(low);
    else if (earlier2(low.ts, low.id, high.ts, high.id))
      out.push(low, high);
    else
      out.push(high, low);
  };
  for (const row of rows) {
    const at = bucketStart(row[E.start], size);
    if (at !== start) {
      flush();
      start = at;
      lo = row;
      hi = row;
      continue;
    }
    const l = lo;
    const h = hi;
    const v = row[E.minValue];
    if (v < l[E.minValue] || v === l[E.minValue] && earlier2(row[E.minTs], row[E.minId], l[E.minTs], l[E.minId]))
      lo = row;
    const w = row[E.maxValue];
    if (w > h[E.maxValue] || w === h[E.maxValue] && earlier2(row[E.maxTs], row[E.maxId], h[E.maxTs], h[E.maxId]))
      hi = row;
  }
  flush();
  return out;
}

// dist/history/bucket-json.js
init_date_time();
var aggregateBucketJson = (b) => `{"start":"${isoOf(b.start)}","end":"${isoOf(b.end)}","count":${b.count},"min":${b.min},"max":${b.max},"mean":${b.mean},"first":${b.first},"last":${b.last}}`;

// dist/history/day-cache.js
init_bucket_sizes();
var DEFAULT_LIMIT_ROWS = 1e5;
function dayCache(source, limitRows = DEFAULT_LIMIT_ROWS) {
  const days = /* @__PURE__ */ new Map();
  let keptRows = 0;
  function keep(key, day) {
    const old = days.get(key);
    if (old) {
      keptRows -= old.rows.length;
      days.delete(key);
    }
    days.set(key, day);
    keptRows += day.rows.length;
    for (const [oldest, dropped] of days) {
      if (keptRows <= limitRows)
        break;
      days.delete(oldest);
      keptRows -= dropped.rows.length;
    }
  }
  function byDay(rows) {
    const out = /* @__PURE__ */ new Map();
    for (const row of rows) {
      const day = bucketStart(row[0], DAY2);
      let list = out.get(day);
      if (!list)
        out.set(day, list = []);
      list.push(row);
    }
    return out;
  }
  return {
    /**
     * A sensor's buckets of `size` (a size that divides a day) starting in [from, to), as
     * stretches in time order: each whole day inside the range from the cache where it is still
     * current, the partial days at the edges read as they are. Rows are in the columns of `read`,
     * whose first column is the bucket's start.
     */
    async stretches(read, sensorId, size, from, to) {
      const firstDay = bucketStart(from + DAY2 - 1, DAY2);
      const endDay = bucketStart(to, DAY2);
      if (firstDay >= endDay)
        return [{ rows: await source.bucketRows(read, sensorId, size, from, to) }];
      const stamps = await source.dayStamps(sensorId, firstDay, endDay);
      const keyOf2 = (day) => `${read}:${size}:${sensorId}:${day}`;
      const found = stamps.map(([day, stamp]) => {
        const key = keyOf2(day);
        const kept = days.get(key);
        if (kept?.stamp !== stamp)
          return void 0;
        days.delete(key);
        days.set(key, kept);
        return kept;
      });
      const missing = stamps.filter((_, i) => found[i] === void 0);
      if (missing.length > 0) {
        const fresh = byDay(await source.bucketRows(read, sensorId, size, missing[0][0], missing[missing.length - 1][0] + DAY2));
        stamps.forEach(([day, stamp], i) => {
          if (found[i] !== void 0)
            return;
          const entry2 = { stamp, rows: fresh.get(day) ?? [] };
          keep(keyOf2(day), entry2);
          found[i] = entry2;
        });
      }
      const out = [];
      if (from < firstDay)
        out.push({ rows: await source.bucketRows(read, sensorId, size, from, firstDay) });
      for (const day of found)
        out.push({ day });
      if (endDay < to)
        out.push({ rows: await source.bucketRows(read, sensorId, size, endDay, to) });
      return out;
    },
    /** How many rows are kept (for tests and metrics). */
    size: () => keptRows
  };
}
function rowsOf(stretches) {
  const out = [];
  for (const s of stretches)
    for (const row of "day" in s ? s.day.rows : s.rows)
      out.push(row);
  return out;
}
var OPEN = Buffer.from("[");
var COMMA = Buffer.from(",");
var CLOSE = Buffer.from("]");
function jsonArrayOf(stretches, rowJson) {
  const parts = [OPEN];
  const encode = (rows) => Buffer.from(rows.map(rowJson).join(","));
  for (const s of stretches) {
    const part = "day" in s ? s.day.json ??= encode(s.day.rows) : encode(s.rows);
    if (part.length === 0)
      continue;
    if (parts.length > 1)
      parts.push(COMMA);
    parts.push(part);
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

// dist/history/bucket-size.js
init_duration();
init_instants();
init_bucket_sizes();
function readBucketSize(text2) {
  if (hasCalendarUnits(text2)) {
    return {
      msg: "Months and years have no fixed length and cannot size a bucket; give days instead (e.g. P30D, P365D)",
      type: "value_error"
    };
  }
  const size = parseBucketSize(text2, parseDuration);
  if (size === void 0 || size < 1 || !Number.isInteger(size)) {
    return {
      msg: "Input should be a positive duration in whole milliseconds (e.g. 5m, 1h, 1d, PT15M, 3600)",
      type: "duration_parsing"
    };
  }
  if (size > LONGEST_DURATION)
    return { msg: "A bucket should be at most the span of the years 1 to 9999", type: "duration_too_long" };
  return size;
}
var isBucketSizeProblem = (value) => typeof value !== "number";
function bucketsBeyondYears(start, end, size) {
  const from = bucketStart(start, size);
  const to = bucketCeil(end, size);
  if (from >= EARLIEST_INSTANT && to <= LATEST_INSTANT)
    return void 0;
  const early = from < EARLIEST_INSTANT;
  return {
    msg: `Buckets of this size would start before the year 1 or end after the year 9999 (${early ? "the first would start" : "the last would end"} ${yearOf(early ? from : to)}); give a smaller bucket`,
    type: "value_error"
  };
}
function yearOf(ms) {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? "beyond any date" : `in the year ${date.getUTCFullYear()}`;
}

// dist/history/service.js
init_bucket_fold();
init_bucket_sizes();

// dist/domain/bucket-rows.js
var R = {
  start: 0,
  count: 1,
  sum: 2,
  minValue: 3,
  minTs: 4,
  minId: 5,
  maxValue: 6,
  maxTs: 7,
  maxId: 8,
  firstValue: 9,
  firstTs: 10,
  firstId: 11,
  lastValue: 12,
  lastTs: 13,
  lastId: 14
};
var V = { start: 0, count: 1, sum: 2, min: 3, max: 4, first: 5, last: 6 };
function bucketOfRow(r) {
  return {
    start: r[R.start],
    count: r[R.count],
    sum: r[R.sum],
    min: { value: r[R.minValue], ts: r[R.minTs], id: r[R.minId] },
    max: { value: r[R.maxValue], ts: r[R.maxTs], id: r[R.maxId] },
    first: { value: r[R.firstValue], ts: r[R.firstTs], id: r[R.firstId] },
    last: { value: r[R.lastValue], ts: r[R.lastTs], id: r[R.lastId] }
  };
}

// dist/history/service.js
init_errors();
function answerOfRow(r, size) {
  const start = r[V.start];
  const count = r[V.count];
  return {
    start,
    end: start + size,
    count,
    min: r[V.min],
    max: r[V.max],
    mean: r[V.sum] / count,
    first: r[V.first],
    last: r[V.last]
  };
}
function answerOfBucket(b, size) {
  return {
    start: b.start,
    end: b.start + size,
    count: b.count,
    min: b.min.value,
    max: b.max.value,
    mean: b.sum / b.count,
    first: b.first.value,
    last: b.last.value
  };
}
function historyService({ store, now }) {
  const hourly = dayCache(store.history);
  async function keptStretches(read, sensorId, size, from, to) {
    if (size === HOUR2)
      return hourly.stretches(read, sensorId, size, from, to);
    return [{ rows: await store.history.bucketRows(read, sensorId, size, from, to) }];
  }
  async function boundsOf(sensorId, window) {
    const extent2 = window.start === void 0 || window.end === void 0 ? await store.history.extent(sensorId) : void 0;
    const start = window.start ?? extent2?.first;
    const end = window.end === void 0 ? extent2?.end : window.end + (window.endInclusive ? 1 : 0);
    if (start === void 0 || end === void 0 || start >= end)
      return void 0;
    return { start, end };
  }
  async function answeredBeyondYears(sensorId, start, end, size) {
    if (!bucketsBeyondYears(start, end, size))
      return void 0;
    const extent2 = await store.history.extent(sensorId);
    const first = Math.max(start, extent2?.first ?? end);
    const last = Math.min(end, extent2?.end ?? start);
    return first < last ? bucketsBeyondYears(first, last, size) : void 0;
  }
  async function fromRawRows(sensorId, start, end, size) {
    const out = [];
    const stream = bucketStream([size], (_size, bucket) => out.push(bucket));
    for await (const page of store.measurements.walkWindow(sensorId, { start, end, endInclusive: false })) {
      for (const row of page)
        stream.push(row);
    }
    stream.end();
    return out;
  }
  return {
    /**
     * GET /measurements/{id}/aggregate: buckets of the asked size, or of the size that fits
     * max_points, as the UTF-8 JSON of the answer (an array). Bytes, because a kept day's part of
     * it is kept with the day's rows (see dayCache): a year of hourly buckets is 1.8 MB of it.
     */
    async aggregateJson(sensorId, query) {
      const window = windowOf(query, now());
      if (query.bucket === void 0 && query.max_points === void 0) {
        throw new InvalidInput({ loc: ["query", "bucket"], msg: "Give bucket (a duration) or max_points", type: "missing" });
      }
      if (query.bucket !== void 0 && query.max_points !== void 0) {
        throw new InvalidInput({ loc: ["query", "max_points"], msg: "Give bucket or max_points, not both", type: "value_error" });
      }
      let asked;
      if (query.bucket !== void 0) {
        const read = readBucketSize(query.bucket);
        if (isBucketSizeProblem(read))
          throw new InvalidInput({ loc: ["query", "bucket"], ...read });
        asked = read;
      }
      if (!await store.sensors.get(sensorId))
        throw new NotFound(`Sensor ${sensorId} not found`);
      const bounds = await boundsOf(sensorId, window);
      if (!bounds)
        return Buffer.from("[]");
      const { start, end } = bounds;
      const size = asked ?? sizeFittingIn(start, end, query.max_points);
      if (size === void 0) {
        throw new InvalidInput({
          loc: ["query", "max_points"],
          msg: "No bucket size fits this window in so few buckets",
          type: "value_error"
        });
      }
      const count = bucketsIn(start, end, size);
      if (count > MAX_BUCKETS) {
        throw new InvalidInput({
          loc: ["query", query.bucket !== void 0 ? "bucket" : "max_points"],
          msg: `The window holds ${count} buckets of this size; at most ${MAX_BUCKETS.toLocaleString("en-US")} are answered`,
          type: "value_error"
        });
      }
      const from = bucketStart(start, size);
      const to = bucketCeil(end, size);
      const beyond2 = await answeredBeyondYears(sensorId, start, end, size);
      if (beyond2)
        throw new InvalidInput({ loc: ["query", query.bucket !== void 0 ? "bucket" : "max_points"], ...beyond2 });
      const kept = keptSizeDividing(size);
      if (kept === size) {
        const stretches = await keptStretches("values", sensorId, size, from, to);
        return jsonArrayOf(stretches, (r) => aggregateBucketJson(answerOfRow(r, size)));
      }
      const buckets = kept === void 0 ? await fromRawRows(sensorId, from, to, size) : foldBuckets(rowsOf(await keptStretches("whole", sensorId, kept, from, to)).map(bucketOfRow), size);
      return Buffer.from(`[${buckets.map((b) => aggregateBucketJson(answerOfBucket(b, size))).join(",")}]`);
    },
    /**
     * `max_points` over a window, from the buckets when that reads fewer rows than the raw rows:
     * the window is cut into at most max_points/2 aligned buckets of a multiple of a kept size,
     * each giving its lowest and highest measurement. The kept buckets wholly inside the window
     * give theirs; the two partial kept buckets at its edges are read from raw rows (under one
     * kept size of them each) and join the edge buckets as points of their own. Undefined: the raw
     * path is cheaper (or the window holds no more than max_points rows and is answered whole).
     */
    async downsampled(sensorId, window, maxPoints) {
      const bounds = await boundsOf(sensorId, window);
      if (!bounds)
        return void 0;
      const { start, end } = bounds;
      const size = sizeFittingIn(start, end, Math.max(1, Math.floor(maxPoints / 2)));
      if (size === void 0)
        return void 0;
      const kept = keptSizeDividing(size);
      if (kept === void 0 || bucketCeil(start, size) >= bucketStart(end, size))
        return void 0;
      const keptStart = bucketCeil(start, kept);
      const keptEnd = bucketStart(end, kept);
      const rows = rowsOf(await keptStretches("extremes", sensorId, kept, keptStart, keptEnd));
      let inner = 0;
      for (const r of rows)
        inner += r[E.count];
      if (inner <= maxPoints || rows.length >= inner)
        return void 0;
      const edge = async (edgeWindow, first, last) => first > last ? [] : (await store.measurements.extremesPerBucket(sensorId, edgeWindow, new BucketLayout(first, last, 1), 1)).map(extremesRowOf);
      const head = await edge({ start, end: keptStart, endInclusive: false }, start, keptStart - 1);
      const tail = await edge({ start: keptEnd, end: window.end, endInclusive: window.endInclusive }, keptEnd, end - 1);
      return extremesPerBucket([...head, ...rows, ...tail], size).map((p) => ({
        measurement_id: p.id,
        sensor_id: sensorId,
        value: p.value,
        timestamp: p.ts
      }));
    }
  };
}

// dist/measurements/service.js
init_date_time();

// dist/measurements/random-series.js
init_measurement();
var HOUR3 = 36e5;
var DAY3 = 24 * HOUR3;
var YEAR = 365 * DAY3;
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = a + 1831565813 >>> 0;
    let t = a;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}
function gaussian(random) {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
function perSensorCount(total, sensors) {
  return Math.ceil(total / sensors);
}
function splitShare(count, options) {
  const day = Math.floor(count * options.dayly_measurements_ratio);
  const hour = Math.floor(count * options.hourly_measurements_ratio);
  return { year: count - day - hour, day, hour };
}
function twoDecimals(value) {
  return Math.abs(value) < 2 ** 53 / 100 ? Math.round(value * 100) / 100 : value;
}
function randomSeries(sensor, count, options, now, random) {
  const { year, day, hour } = splitShare(count, options);
  const timestamps = new Float64Array(count);
  let i = 0;
  for (const [n, span] of [
    [year, YEAR],
    [day, DAY3],
    [hour, HOUR3]
  ]) {
    for (let k = 0; k < n; k++)
      timestamps[i++] = now - Math.floor(random() * span);
  }
  timestamps.sort();
  const middle = sensor.threshold_critically_low / 2 + sensor.threshold_critically_high / 2;
  const halfRange = sensor.threshold_critically_high / 2 - sensor.threshold_critically_low / 2;
  const deviation = Math.min(options.deviation_rate, MAX_DEVIATION_RATE);
  const cap = deviation / 2;
  const values = new Float64Array(count);
  let offset = 0;
  for (let k = 0; k < count; k++) {
    const proposal = offset + gaussian(random) * deviation - offset * options.drift_adjustment;
    const smoothed = options.smoothing_factor * offset + (1 - options.smoothing_factor) * proposal;
    offset += Math.max(-cap, Math.min(cap, smoothed - offset));
    const value = middle + offset * halfRange;
    values[k] = twoDecimals(Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, value)));
  }
  return { timestamps, values };
}

// dist/measurements/service.js
init_bucket_sizes();
init_store();
init_errors();
var MAX_FUTURE_MS2 = 5 * 60 * 1e3;
function extent(values) {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min)
      min = v;
    if (v > max)
      max = v;
  }
  return { min, max };
}
async function* resume(head, rest) {
  try {
    yield* head;
    yield* rest;
  } finally {
    await rest.return(void 0);
  }
}
function measurementService({ store, bus, now, log }, history) {
  return {
    /**
     * Records one measurement or a batch (`batch` says which the request was, for the places of
     * its problems): all of them or none, answered once committed.
     */
    async record(items, batch) {
      const receivedAt = now();
      const rows = new Array(items.length);
      const issues = [];
      for (let index = 0; index < items.length; index++) {
        const item = items[index];
        const timestamp = item.timestamp === void 0 ? receivedAt : parseDateTime(item.timestamp);
        if (timestamp > receivedAt + MAX_FUTURE_MS2) {
          issues.push({
            loc: batch ? ["body", index, "timestamp"] : ["body", "timestamp"],
            msg: "timestamp is more than 5 minutes in the future",
            type: "value_error"
          });
        }
        rows[index] = { sensor_id: item.sensor_id, value: item.value, timestamp };
      }
      if (issues.length > 0)
        throw new InvalidInput(...issues);
      const ids = rows.map((r) => r.sensor_id);
      const known = await store.sensors.existing(ids);
      const missing = ids.find((id) => !known.has(id));
      if (missing !== void 0)
        throw new NotFound(`Sensor ${missing} not found`);
      const stored = await store.ingest(rows).catch(async (error) => {
        if (!isMissingReference(error))
          throw error;
        const stillKnown = await store.sensors.existing(ids);
        throw new NotFound(`Sensor ${ids.find((id) => !stillKnown.has(id)) ?? ids[0]} not found`);
      });
      bus.publish("measurements", { rows: stored });
      return stored;
    },
    /**
     * A sensor's measurements in a window, ascending. With `max_points`, when the window holds
     * more, each of max_points/2 equal spans of time keeps its lowest and highest measurement.
     */
    async window(sensorId, query) {
      const window = windowOf(query, now());
      if (!await store.sensors.get(sensorId))
        throw new NotFound(`Sensor ${sensorId} not found`);
      const { max_points } = query;
      if (max_points !== void 0) {
        const fromBuckets = await history.downsampled(sensorId, window, max_points);
        if (fromBuckets)
          return { rows: fromBuckets };
        const span = await store.measurements.windowSpan(sensorId, window);
        if (span.count > max_points) {
          const layout = new BucketLayout(span.first, span.last, bucketCount(max_points));
          return { rows: await store.measurements.extremesPerBucket(sensorId, window, layout, span.count) };
        }
      }
      const pages = store.measurements.walkWindow(sensorId, window);
      const first = await pages.next();
      if (first.done)
        return { rows: [] };
      const second = await pages.next();
      if (second.done)
        return { rows: first.value };
      return { pages: resume([first.value, second.value], pages) };
    },
    /** The newest measurement of a sensor (by timestamp, ties: the highest id). */
    async last(sensorId) {
      const last = await store.measurements.last(sensorId);
      if (last)
        return last;
      if (!await store.sensors.get(sensorId))
        throw new NotFound(`Sensor ${sensorId} not found`);
      throw new NotFound(`Sensor ${sensorId} has no measurements`);
    },
    async remove(measurementId) {
      const measurement = await store.remove.measurement(measurementId);
      if (!measurement)
        throw new NotFound(`Measurement ${measurementId} not found`);
      bus.publish("measurementDeleted", { measurement });
    },
    /** The CSV export of the sensors and window the query selects, as text chunks read page by page. */
    async exportCsv({ sensor_id, prototype_id, start_time, end_time }) {
      const window = windowOf({ start_time, end_time }, now());
      const sensors = await store.sensors.list({ sensorIds: sensor_id, prototypeId: prototype_id });
      return exportLines(sensors, (id) => store.measurements.walkWindow(id, window));
    },
    /**
     * Synthetic data shared equally among all sensors, in one transaction (replacing every
     * measurement when asked).
     */
    async generate(options) {
      const ratios = options.yearly_measurements_ratio + options.dayly_measurements_ratio + options.hourly_measurements_ratio;
      if (ratios > 1 + 1e-9) {
        throw new InvalidInput({ loc: ["body"], msg: "The three measurement ratios must add up to at most 1", type: "value_error" });
      }
      const sensors = await store.sensors.list();
      if (sensors.length === 0) {
        throw new InvalidInput({ loc: ["body"], msg: "There are no sensors to generate measurements for", type: "value_error" });
      }
      const perSensor = perSensorCount(options.nb_measurements, sensors.length);
      const at = now();
      const random = seededRandom(Math.floor(Math.random() * 2 ** 32));
      const deleted = await store.transaction(async (tx) => {
        let removed = 0;
        if (options.replace) {
          removed = await tx.measurements.deleteAll();
          await tx.history.removeAll();
        }
        for (const sensor of sensors) {
          const series = randomSeries(sensor, perSensor, options, at, random);
          await tx.measurements.insertSeries(sensor.sensor_id, series.timestamps, series.values);
          const { min, max } = extent(series.timestamps);
          await tx.history.rebuild(sensor.sensor_id, bucketStart(min, DAY2), bucketStart(max, DAY2) + DAY2);
        }
        return removed;
      });
      const generated = perSensor * sensors.length;
      bus.publish("generated", { sensorIds: sensors.map((s) => s.sensor_id), generated, deleted });
      await store.measurements.analyze().catch((error) => log.warn({ err: error }, "analyze after generation failed"));
      return { generated, deleted, sensors: sensors.length };
    }
  };
}

// dist/prototypes/service.js
init_duration();
init_errors();

// dist/core/cascade.js
function publishRemoved(bus, removed) {
  for (const actuator of removed.disabled)
    bus.publish("actuator", { action: "updated", actuator });
  for (const actuatorId of removed.actuatorIds)
    bus.publish("actuator", { action: "deleted", actuatorId });
  for (const sensorId of removed.sensorIds)
    bus.publish("sensor", { action: "deleted", sensorId });
}

// dist/domain/dependents.js
function describeDependents(d) {
  const plural = (n, word) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
  const counts = [
    [d.sensors ?? 0, "sensor"],
    [d.actuators, "actuator"],
    [d.measurements, "measurement"],
    [d.notes ?? 0, "note"]
  ];
  const parts = counts.filter(([n]) => n > 0).map(([n, word]) => plural(n, word));
  if (parts.length === 0)
    return "nothing else";
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

// dist/core/removal-refused.js
init_errors();
function removalRefused(what, dependents) {
  const { sensors = 0, actuators, measurements, notes: notes2 = 0 } = dependents;
  return new HasDependents(`${what} still has ${describeDependents(dependents)}; delete them first, or add ?cascade=true to delete them with it`, { sensors, actuators, measurements, notes: notes2 });
}

// dist/prototypes/service.js
var prototypeNotFound = (id) => `Prototype ${id} not found`;
function pauseLengthMs(value) {
  const ms = typeof value === "number" ? value * 1e3 : parseDuration(value.trim());
  if (ms === void 0 || !Number.isFinite(ms) || ms < PAUSE_MIN_SECONDS * 1e3 || ms > PAUSE_MAX_SECONDS * 1e3) {
    throw new InvalidInput({
      loc: ["body", "for"],
      msg: `A pause lasts from ${PAUSE_MIN_SECONDS} second to ${PAUSE_MAX_SECONDS / 3600} hours: seconds, or a duration such as PT30M`,
      type: "pause_length"
    });
  }
  return ms;
}
function prototypeService({ store, bus, now }) {
  const view = (stored) => prototypeView(stored, now());
  return {
    list: async () => (await store.prototypes.list()).map(view),
    async get(prototypeId) {
      const prototype = await store.prototypes.get(prototypeId);
      if (!prototype)
        throw new NotFound(prototypeNotFound(prototypeId));
      return view(prototype);
    },
    /** Creates a prototype with the id the client chose. */
    async create(prototype) {
      const created = await store.prototypes.create(prototype);
      if (!created)
        throw new Conflict(`Prototype ${prototype.prototype_id} already exists`);
      const answer = view(created);
      bus.publish("prototype", { action: "created", prototype: answer });
      return answer;
    },
    /** Renames the prototype (API.md §5). */
    async rename(prototypeId, name) {
      const renamed = await store.prototypes.rename(prototypeId, name);
      if (!renamed)
        throw new NotFound(prototypeNotFound(prototypeId));
      const answer = view(renamed);
      bus.publish("prototype", { action: "updated", prototype: answer });
      return answer;
    },
    /**
     * Pauses dosing on the prototype from now for `length` (API.md §14); a pause replaces the one
     * before it. The decision of its actuators follows from `paused_until`. Recorded for the
     * journal with who asked (`by`, null in open mode).
     */
    async pause(prototypeId, body, by = null) {
      const at = now();
      const until = at + pauseLengthMs(body.for);
      const paused = await store.transaction(async (tx) => {
        const row = await tx.prototypes.setPause(prototypeId, until);
        if (row)
          await tx.safetyEvents.record({ kind: "pause", at, actuator_id: null, prototype_id: prototypeId, until, author: by });
        return row;
      });
      if (!paused)
        throw new NotFound(prototypeNotFound(prototypeId));
      bus.publish("prototype", { action: "updated", prototype: view(paused) });
      return { prototype_id: prototypeId, paused_until: new Date(until).toISOString() };
    },
    /**
     * Ends the prototype's pause now (nothing to end is fine: the prototype is not paused
     * afterwards either way). Ending a pause still running is recorded for the journal.
     */
    async resume(prototypeId, by = null) {
      const at = now();
      const resumed = await store.transaction(async (tx) => {
        const before = await tx.prototypes.get(prototypeId);
        if (!before)
          return void 0;
        const row = await tx.prototypes.setPause(prototypeId, null);
        if (pausedUntil(before, at) !== null) {
          await tx.safetyEvents.record({ kind: "resume", at, actuator_id: null, prototype_id: prototypeId, author: by });
        }
        return row;
      });
      if (!resumed)
        throw new NotFound(prototypeNotFound(prototypeId));
      bus.publish("prototype", { action: "updated", prototype: view(resumed) });
    },
    /**
     * Deletes the prototype; while it has sensors only with `cascade`, which deletes them (and
     * what is below them) with it. Each actuator and sensor deleted is told of, then the prototype.
     */
    async remove(prototypeId, cascade) {
      const result = await store.remove.prototype(prototypeId, cascade);
      if (result.status === "missing")
        throw new NotFound(prototypeNotFound(prototypeId));
      if (result.status === "has-dependents")
        throw removalRefused(`Prototype ${prototypeId}`, result.dependents);
      publishRemoved(bus, result);
      bus.publish("prototype", { action: "deleted", prototypeId });
    }
  };
}

// dist/domain/thresholds.js
function thresholdsInOrder(t) {
  return t.threshold_critically_low <= t.threshold_low && t.threshold_low <= t.threshold_high && t.threshold_high <= t.threshold_critically_high;
}

// dist/sensors/service.js
init_errors();
var SENSOR_FIELDS = Object.keys(SensorBase.properties);
function thresholdsOutOfOrder(loc) {
  return new InvalidInput({ loc, msg: "Thresholds must satisfy critically_low \u2264 low \u2264 high \u2264 critically_high", type: "thresholds_order" });
}
var validRangeCrossed = (s) => s.valid_min !== void 0 && s.valid_min !== null && s.valid_max !== void 0 && s.valid_max !== null && s.valid_min > s.valid_max;
function validRangeCrossedIssue(loc) {
  return new InvalidInput({ loc: [...loc, "valid_min"], msg: "valid_min must be \u2264 valid_max", type: "valid_range_order" });
}
var msOrNull2 = (iso3) => iso3 === null ? null : Date.parse(iso3);
function dueAfter(sensor, before, now) {
  const reminder = { intervalDays: before?.calibration_interval ?? null, due: msOrNull2(before?.calibration_due ?? null) };
  return calibrationDue(sensor.calibration_interval ?? null, msOrNull2(sensor.calibrated_at ?? null), reminder, now);
}
function sensorService({ store, bus, now }) {
  return {
    /** Registers a sensor on an existing prototype. */
    async create(sensor) {
      if (!thresholdsInOrder(sensor))
        throw thresholdsOutOfOrder(["body"]);
      if (validRangeCrossed(sensor))
        throw validRangeCrossedIssue(["body"]);
      const created = await store.transaction(async (tx) => {
        if (!await tx.prototypes.exists(sensor.prototype_id))
          throw new NotFound(`Prototype ${sensor.prototype_id} not found`);
        return tx.sensors.create(sensor, dueAfter({ calibration_interval: sensor.calibration_interval ?? null, calibrated_at: null }, void 0, now()));
      });
      bus.publish("sensor", { action: "created", sensor: created });
      return created;
    },
    async listByPrototype(prototypeId) {
      if (!await store.prototypes.exists(prototypeId))
        throw new NotFound(`Prototype ${prototypeId} not found`);
      return store.sensors.listByPrototype(prototypeId);
    },
    /**
     * Deletes the sensor; while it has measurements or actuators, or actuators use it as an
     * interlock, only with `cascade`, which deletes them with it (and disables the actuators
     * whose interlock it was). Each actuator disabled or deleted is told of, then the sensor.
     */
    async remove(sensorId, cascade) {
      const result = await store.remove.sensor(sensorId, cascade);
      if (result.status === "missing")
        throw new NotFound(`Sensor ${sensorId} not found`);
      if (result.status === "has-dependents")
        throw removalRefused(`Sensor ${sensorId}`, result.dependents);
      publishRemoved(bus, result);
    },
    /**
     * Partial bulk update, all or nothing; thresholds are checked on the merged result. A changed
     * calibration_interval moves when the next calibration falls due.
     */
    async patch(patches) {
      const updated = await store.transaction((tx) => {
        const read = /* @__PURE__ */ new Map();
        return patchAll(patches, {
          idOf: (patch) => patch.sensor_id,
          fields: SENSOR_FIELDS,
          rows: {
            lock: tx.sensors.lock,
            async get(id) {
              const sensor = await tx.sensors.get(id);
              if (sensor)
                read.set(id, sensor);
              return sensor;
            },
            update: (merged) => tx.sensors.update(merged, dueAfter(merged, read.get(merged.sensor_id), now()))
          },
          notFound: (id) => `Sensor ${id} not found`,
          check: (merged, index) => {
            if (!thresholdsInOrder(merged))
              throw thresholdsOutOfOrder(["body", index]);
            if (validRangeCrossed(merged))
              throw validRangeCrossedIssue(["body", index]);
          },
          parent: { field: "prototype_id", exists: tx.prototypes.exists, notFound: (id) => `Prototype ${id} not found` }
        });
      });
      for (const sensor of updated)
        bus.publish("sensor", { action: "updated", sensor });
      return updated;
    }
  };
}

// dist/users/service.js
init_errors();

// dist/users/audit.js
function audit(log, now, actor, action, target) {
  log.info({ audit: { actor, action, ...target }, at: new Date(now()).toISOString() }, "audit");
}

// dist/users/device-tokens.js
var DAY_MS4 = 24 * 36e5;
async function issueDeviceToken(store, tokens, user, name, days, now) {
  const ttlMs = Math.round(days * DAY_MS4);
  const expiresAt = Math.floor((now + ttlMs) / 1e3) * 1e3;
  const row = await store.deviceTokens.create({ user_id: user.user_id, name, created_at: now, expires_at: expiresAt });
  const accessToken = await tokens.issue(user, now, ttlMs, { device: { tokenId: row.token_id } });
  return { row, accessToken };
}

// dist/users/service.js
var DAY_MS5 = 24 * 36e5;
var iso2 = (ms) => new Date(ms).toISOString();
var userView = (user) => ({
  username: user.username,
  permissions: user.permissions,
  created_at: iso2(user.created_at)
});
function permissionBits(given) {
  if (typeof given === "number")
    return given;
  try {
    return permissionsOfNames(given);
  } catch (error) {
    throw new InvalidInput({ loc: ["body", "permissions"], msg: error.message, type: "enum" });
  }
}
function userService({ store, bus, now, log }, auth, authMode, sessions) {
  const bearerToken2 = async (user) => ({
    access_token: await auth.tokens.issue(user, now()),
    token_type: "bearer"
  });
  const actorOf = (principal) => principal?.username ?? null;
  const isAdmin = (principal) => principal === void 0 || (principal.permissions & PERMISSIONS.admin) !== 0;
  async function existingUser(username) {
    const user = await store.users.get(username);
    if (!user)
      throw new NotFound(`User ${username} not found`);
    return user;
  }
  function mayManageTokensOf(principal, userId) {
    if (isAdmin(principal))
      return;
    if (principal.user_id === userId && (principal.permissions & PERMISSIONS.read) !== 0)
      return;
    throw forbidden();
  }
  const tokenView = (row) => {
    const lastUsed = Math.max(row.last_used_at ?? -Infinity, auth.uses.pendingFor(row.token_id) ?? -Infinity);
    return {
      token_id: row.token_id,
      name: row.name,
      created_at: iso2(row.created_at),
      expires_at: iso2(row.expires_at),
      last_used_at: Number.isFinite(lastUsed) ? iso2(lastUsed) : null
    };
  };
  return {
    /**
     * The password login: throttled per username and per address, the same time spent for an
     * unknown username as for a wrong password, a token for the right one.
     */
    async login(username, password, address) {
      const admittedAt = now();
      const wait = auth.throttle.admit(username, address, admittedAt);
      if (wait > 0)
        throw new TooManyAttempts("Too many failed logins, try again later", wait);
      const user = await store.users.get(username);
      const ok = await verifyPassword(user?.password_hash ?? await dummyHash(), password);
      if (!user || !ok)
        throw new Unauthenticated("Incorrect username or password");
      auth.throttle.succeeded(username, address, admittedAt);
      return bearerToken2(user);
    },
    /**
     * Creates a user with read and modify and returns a token for it; with AUTH_MODE=enforced the
     * store's very first user gets every permission. `onlyIfFirst`: the request came in without a
     * token while no user existed, so it may only make the first one.
     */
    async create(username, password, onlyIfFirst, principal) {
      const user = await store.users.create({
        username,
        password_hash: await hashPassword(password),
        permissions: NEW_USER_PERMISSIONS,
        // In open mode anyone may get here, so the administrator bit is never handed out: a token
        // made now would otherwise still administer users after the switch to enforced.
        firstUserPermissions: authMode === "enforced" ? ALL_PERMISSIONS : NEW_USER_PERMISSIONS,
        onlyIfFirst,
        created_at: now()
      });
      if (!user)
        throw onlyIfFirst ? notAuthenticated() : new Conflict(`Username ${username} is already taken`);
      audit(log, now, actorOf(principal), "user created", { username, permissions: user.permissions });
      return bearerToken2(user);
    },
    /** Ends the tokens the user obtained with a password; device tokens stay valid. Its session streams end too. */
    async logout(principal) {
      const sessionGeneration = await store.users.revokeSessions(principal.user_id);
      if (sessionGeneration === void 0)
        return;
      bus.publish("tokensRevoked", { userId: principal.user_id, sessionGeneration });
      audit(log, now, principal.username, "logged out", { username: principal.username });
    },
    /**
     * A new session token with a fresh lifetime, for a valid session token: never past
     * SESSION_MAX_DAYS since the password was given (the new token carries that moment on).
     */
    async refresh(principal) {
      if (principal.sessionGeneration === void 0 || principal.loginAt === void 0) {
        throw new Unauthenticated("Only a token obtained with a password can be refreshed");
      }
      const at = now();
      const until = principal.loginAt + sessions.sessionMaxDays * DAY_MS5;
      const ttlMs = Math.min(sessions.tokenTtlMs, until - at);
      if (ttlMs < 1e3)
        throw new Unauthenticated("The session has lasted SESSION_MAX_DAYS: log in again");
      const user = await store.users.get(principal.username);
      if (!user)
        throw notAuthenticated();
      const token = await auth.tokens.issue(user, at, ttlMs, { session: { loginAt: principal.loginAt } }, principal.permissions);
      return { access_token: token, token_type: "bearer" };
    },
    async list() {
      return (await store.users.list()).map(userView);
    },
    /** Creates a user with the permissions given (API.md §6.1). 409 when the username is taken. */
    async add(principal, body) {
      const permissions = permissionBits(body.permissions);
      const user = await store.users.create({
        username: body.username,
        password_hash: await hashPassword(body.password),
        permissions,
        created_at: now()
      });
      if (!user)
        throw new Conflict(`Username ${body.username} is already taken`);
      audit(log, now, actorOf(principal), "user created", { username: user.username, permissions });
      return userView(user);
    },
    /**
     * Changes a user's permissions and/or password. Taking admin from the last administrator is a
     * 409. A new password ends the tokens obtained with the old one (device tokens stay).
     */
    async change(principal, username, body) {
      const permissions = body.permissions === void 0 ? void 0 : permissionBits(body.permissions);
      const password_hash = body.password === void 0 ? void 0 : await hashPassword(body.password);
      const result = await store.users.update(username, { permissions, password_hash });
      if (result === "missing")
        throw new NotFound(`User ${username} not found`);
      if (result === "last_admin")
        throw new Conflict(`${username} is the last administrator: make another user an administrator first`);
      if (password_hash !== void 0)
        bus.publish("tokensRevoked", { userId: result.user_id, sessionGeneration: result.session_generation });
      if (permissions !== void 0)
        audit(log, now, actorOf(principal), "permissions changed", { username, permissions });
      if (password_hash !== void 0)
        audit(log, now, actorOf(principal), "password changed", { username });
      return userView(result);
    },
    /** Removes a user and its tokens; the last administrator cannot be removed (409). */
    async remove(principal, username) {
      const user = await existingUser(username);
      const result = await store.users.removeUnlessLastAdmin(username);
      if (result === "missing")
        throw new NotFound(`User ${username} not found`);
      if (result === "last_admin")
        throw new Conflict(`${username} is the last administrator: make another user an administrator first`);
      bus.publish("tokensRevoked", { userId: user.user_id, generation: Number.MAX_SAFE_INTEGER });
      audit(log, now, actorOf(principal), "user removed", { username });
    },
    /** A device token for the user (admin): shown this once. */
    async issueToken(principal, username, name, days) {
      const user = await existingUser(username);
      const { row, accessToken } = await issueDeviceToken(store, auth.tokens, user, name, days, now());
      audit(log, now, actorOf(principal), "device token created", {
        username,
        token_id: row.token_id,
        name,
        expires_at: iso2(row.expires_at)
      });
      return { token_id: row.token_id, name: row.name, access_token: accessToken, expires_at: iso2(row.expires_at) };
    },
    /** The user's device tokens, without their secret: the user's own with read, anyone's with admin. */
    async listTokens(principal, username) {
      const user = await store.users.get(username);
      if (!user) {
        if (!isAdmin(principal))
          throw forbidden();
        throw new NotFound(`User ${username} not found`);
      }
      mayManageTokensOf(principal, user.user_id);
      return (await store.deviceTokens.listByUser(user.user_id)).map(tokenView);
    },
    /** Revokes one device token: one's own with read, anyone's with admin. Its event streams end. */
    async revokeToken(principal, tokenId) {
      const token = await store.deviceTokens.get(tokenId);
      if (!token)
        throw new NotFound(`Token ${tokenId} not found`);
      mayManageTokensOf(principal, token.user_id);
      if (!await store.deviceTokens.remove(tokenId))
        throw new NotFound(`Token ${tokenId} not found`);
      auth.uses.forget(tokenId);
      bus.publish("tokensRevoked", { userId: token.user_id, tokenId });
      audit(log, now, actorOf(principal), "device token revoked", { token_id: tokenId, name: token.name });
    }
  };
}

// dist/services.js
function createServices(deps, config, auth, timers) {
  const history = historyService(deps);
  const decisionInputsKept = decisionInputs({ ...deps, staleAfterMs: config.staleAfterMs, processStartedAt: deps.now() });
  const contact = controllerContact({ ...deps, timers });
  return {
    /** What the dosing decision reads, kept in memory; and when each controller was last heard from. */
    safety: { inputs: decisionInputsKept, contact },
    prototypes: prototypeService(deps),
    sensors: sensorService(deps),
    measurements: measurementService(deps, history),
    history,
    actuators: actuatorService(deps, { decisions: keptDecisions({ inputs: decisionInputsKept, now: deps.now }), contact }),
    doses: doseService(deps, { contact }),
    users: userService(deps, auth, config.authMode, {
      sessionMaxDays: config.sessionMaxDays,
      tokenTtlMs: config.tokenTtlMinutes * 6e4
    }),
    pictures: pictureService(deps, { source: config.pictureSource, timeoutMs: config.pictureTimeoutMs, cacheMs: config.pictureCacheMs })
  };
}

// dist/app.js
init_store();

// dist/timelapse/routes.js
import { Type as Type25 } from "@sinclair/typebox";
init_schema_common();

// dist/timelapse/docs.js
var TIMELAPSE = "Timelapse";
var timelapseDocs = {
  start: (maxFrames, maxBytes) => doc(TIMELAPSE, "Start Timelapse", "startTimelapse", `Starts a timelapse: frame n is taken from the camera (GET /picture's source, sharing its captures and PICTURE_CACHE_MS) at start + n \xD7 frequency, for every n with n \xD7 frequency < duration; a late capture does not move the frames after it. A failed capture is skipped and counted in failed_frames; it never ends the timelapse. Every frame has the image type of the first (a frame of another type counts as failed). When the end date comes, ffmpeg assembles the video. 422 for a value that is not a positive whole number, a duration shorter than the frequency, or more frames than TIMELAPSE_MAX_FRAMES (${maxFrames} here); 409 when a timelapse is already running; 507 when the timelapses kept use TIMELAPSE_MAX_BYTES (${maxBytes === 0 ? "no limit" : `${maxBytes} bytes`} here) or more: delete old ones to make room. A running timelapse that reaches TIMELAPSE_MAX_BYTES stops, and its video is made of the frames taken. A running timelapse resumes after a restart of the service until its end date.`),
  stop: doc(TIMELAPSE, "Stop Timelapse", "stopTimelapse", "Stops the running timelapse and answers at once; ffmpeg then assembles the video of the frames taken so far (`ready` turns true when it is done). A capture under way is not waited for. With no timelapse running it changes nothing and answers the status (a second click is not an error)."),
  latestFrame: doc(TIMELAPSE, "Latest Timelapse Frame", "latestTimelapseFrame", "The newest frame of the running timelapse (image/jpeg, image/png or image/webp, as the camera gave it), sent with Cache-Control: no-store. 404 when no timelapse is running or it has no frame yet."),
  list: doc(TIMELAPSE, "Timelapses", "timelapses", "Every timelapse kept under TIMELAPSE_DIR, newest first (by start_date)."),
  download: doc(TIMELAPSE, "Download Timelapse", "downloadTimelapse", "The video: H.264 MP4 (yuv420p) at the timelapse's framerate, one frame per frame taken, streamed from disk with Content-Length, `Content-Disposition: attachment; filename=timelapse_<id>.mp4`, and range requests (206 with Content-Range; 416 for a range past the end) and conditional requests (ETag, Last-Modified). 404 for an unknown id; 409 while the video is not ready, with a `detail` that says why: still running, being assembled, no frame taken, or ffmpeg missing or failed."),
  remove: doc(TIMELAPSE, "Delete Timelapse", "deleteTimelapse", "Deletes a timelapse with its frames and video; a running one is stopped first (no video is made). 404 for an unknown id."),
  status: (summary, operationId) => doc(TIMELAPSE, summary, operationId, "Whether a timelapse is running, and the metadata and configuration of the running one, else of the last one started (null when there is none).")
};

// dist/timelapse/schemas.js
init_schema_common();
import { Type as Type24 } from "@sinclair/typebox";
var MAX_TIMELAPSE_SECONDS = 10 * 365 * 24 * 3600;
var MAX_FRAMERATE = 240;
var seconds = (description) => Type24.Integer({ exclusiveMinimum: 0, maximum: MAX_TIMELAPSE_SECONDS, description });
var TimelapseConfig = Type24.Object({
  frequency: seconds("Seconds between two frames."),
  duration: seconds("Seconds from the start to the end; at least `frequency`."),
  framerate: Type24.Integer({ exclusiveMinimum: 0, maximum: MAX_FRAMERATE, description: "Frames per second of the video." }),
  name: Type24.Optional(Type24.Union([Type24.String({ maxLength: 200 }), Type24.Null()], {
    description: 'Left out, null or blank: "Timelapse <first 8 characters of the id>".'
  }))
}, { title: "TimelapseConfig", examples: [{ frequency: 600, duration: 1209600, framerate: 24, name: "Lettuce, tank 2" }] });
var TimelapseSettings = Type24.Object({
  frequency: Type24.Integer(),
  duration: Type24.Integer(),
  framerate: Type24.Integer(),
  name: Type24.String()
}, { title: "TimelapseSettings" });
var TimelapseMetadata = Type24.Object({
  id: Type24.String({ description: "A UUID." }),
  name: Type24.String(),
  frames: Type24.Integer({ description: "Frames taken so far." }),
  failed_frames: Type24.Integer({
    description: "Frames due so far that were not taken: the camera failed, the previous capture overran the period, or the service was down."
  }),
  framerate: Type24.Number({ description: "Frames per second of the video." }),
  start_date: DateTimeOutput(),
  latest_frame_date: Type24.Union([DateTimeOutput("When the newest frame was taken."), Type24.Null()]),
  end_date: DateTimeOutput("start_date + duration."),
  ready: Type24.Boolean({ description: "The video can be downloaded." })
}, { title: "TimelapseMetadata" });
var TimelapseStatus = Type24.Object({
  running: Type24.Boolean(),
  metadata: Type24.Union([TimelapseMetadata, Type24.Null()], {
    description: "The running timelapse, else the last one started; null when there is none."
  }),
  config: Type24.Union([TimelapseSettings, Type24.Null()], { description: "The configuration of that timelapse." })
}, { title: "TimelapseStatus" });
var TimelapseIdParams = Type24.Object({ id: Type24.String({ maxLength: 100, description: "The timelapse id." }) });

// dist/timelapse/routes.js
var json2 = (schema) => ({ "application/json": { schema } });
var timelapseRoutes = async (app, { config, timelapses }) => {
  app.post("/timelapse/start", {
    config: { access: "modify" },
    schema: {
      ...timelapseDocs.start(config.timelapseMaxFrames, config.timelapseMaxBytes),
      body: TimelapseConfig,
      response: { 200: TimelapseStatus, ...errorResponses(409, 422, 507) }
    },
    handler: async (request) => {
      await timelapses.start(request.body);
      return timelapses.status();
    }
  });
  app.post("/timelapse/stop", {
    config: { access: "modify" },
    schema: {
      ...timelapseDocs.stop,
      response: { 200: TimelapseStatus }
    },
    handler: async () => {
      await timelapses.stop();
      return timelapses.status();
    }
  });
  for (const [path, summary, operationId] of [
    ["/timelapse/status", "Timelapse Status", "timelapseStatus"],
    ["/timelapse/frame-info", "Timelapse Frame Info", "timelapseFrameInfo"]
  ]) {
    app.get(path, {
      config: { access: "read" },
      schema: {
        ...timelapseDocs.status(summary, operationId),
        response: { 200: TimelapseStatus }
      },
      handler: async () => timelapses.status()
    });
  }
  app.get("/timelapse/latest-frame", {
    config: { access: "read" },
    schema: {
      ...timelapseDocs.latestFrame,
      response: {
        200: {
          description: "The image bytes.",
          content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }]))
        },
        404: { description: "No frame.", content: json2(Type25.Ref(ErrorBody)) }
      }
    },
    handler: async (_request, reply) => {
      const frame = await timelapses.latestFrame();
      return reply.header("Cache-Control", "no-store").type(frame.type).send(frame.bytes);
    }
  });
  app.get("/timelapse", {
    config: { access: "read" },
    schema: {
      ...timelapseDocs.list,
      response: { 200: Type25.Array(TimelapseMetadata) }
    },
    handler: async () => timelapses.list()
  });
  app.get("/timelapse/:id/download", {
    config: { access: "read" },
    schema: {
      ...timelapseDocs.download,
      params: TimelapseIdParams,
      response: {
        200: { description: "The video.", content: { "video/mp4": { schema: { type: "string", format: "binary" } } } },
        206: {
          description: "The requested range of the video.",
          content: { "video/mp4": { schema: { type: "string", format: "binary" } } }
        },
        ...errorResponses(404, 409, 412, 416)
      }
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const video = await timelapses.video(id, request.raw);
      if (video.kind === "refused") {
        if (video.contentRange)
          reply.header("Content-Range", video.contentRange);
        return reply.code(video.status).send({ detail: video.detail });
      }
      return reply.code(video.status).headers(video.headers).type("video/mp4").header("Content-Disposition", `attachment; filename=timelapse_${id}.mp4`).send(video.stream);
    }
  });
  app.delete("/timelapse/:id", {
    config: { access: "modify" },
    schema: {
      ...timelapseDocs.remove,
      params: TimelapseIdParams,
      response: { 204: { description: "Deleted.", type: "null" }, ...errorResponses(404) }
    },
    handler: async (request, reply) => {
      await timelapses.remove(request.params.id);
      return reply.code(204).send();
    }
  });
};
var routes_default11 = timelapseRoutes;

// dist/timelapse/service.js
init_errors();
import { randomUUID as randomUUID3 } from "node:crypto";
import { readFile as readFile2 } from "node:fs/promises";
import { resolve as resolve3 } from "node:path";

// dist/timelapse/assembly.js
import { stat as stat4 } from "node:fs/promises";

// dist/timelapse/folder.js
import { mkdir, readdir as readdir2, readFile, rm, stat as stat3 } from "node:fs/promises";
import { join as join4 } from "node:path";
import writeFileAtomic from "write-file-atomic";

// dist/timelapse/record.js
import { Type as Type26 } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
var TIMELAPSE_STATES = ["running", "assembling", "finished"];
var VIDEO_FAILURES = ["missing", "failed", "timeout"];
var literals = (values) => Type26.Union(values.map((v) => Type26.Literal(v)));
var nullable3 = (schema) => Type26.Union([schema, Type26.Null()]);
var TimelapseRecord = Type26.Object({
  id: Type26.String(),
  name: Type26.String(),
  frames: Type26.Integer({ minimum: 0 }),
  failed_frames: Type26.Integer({ minimum: 0 }),
  framerate: Type26.Integer({ minimum: 1 }),
  frequency: Type26.Integer({ minimum: 1 }),
  duration: Type26.Integer({ minimum: 1 }),
  start_date: Type26.String(),
  latest_frame_date: nullable3(Type26.String()),
  end_date: Type26.String(),
  stopped_date: nullable3(Type26.String()),
  ready: Type26.Boolean(),
  state: literals(TIMELAPSE_STATES),
  /** Every frame has the type of the first one, so ffmpeg reads them as one sequence. */
  image_type: nullable3(literals(IMAGE_TYPES)),
  video_failure: nullable3(Type26.Object({ kind: literals(VIDEO_FAILURES), message: Type26.String() }))
});
function asRecord(value) {
  return Value.Check(TimelapseRecord, value) ? value : void 0;
}
var configOf = (record) => ({
  frequency: record.frequency,
  duration: record.duration,
  framerate: record.framerate,
  name: record.name
});
var gridOf = (record) => ({
  startMs: Date.parse(record.start_date),
  frequencyMs: record.frequency * 1e3,
  durationMs: record.duration * 1e3
});
function newRecord(id, config, startMs) {
  return {
    id,
    name: config.name?.trim() || `Timelapse ${id.slice(0, 8)}`,
    frames: 0,
    failed_frames: 0,
    framerate: config.framerate,
    frequency: config.frequency,
    duration: config.duration,
    start_date: new Date(startMs).toISOString(),
    latest_frame_date: null,
    end_date: new Date(startMs + config.duration * 1e3).toISOString(),
    stopped_date: null,
    ready: false,
    state: "running",
    image_type: null,
    video_failure: null
  };
}

// dist/timelapse/folder.js
var FILE_MODE = 384;
var FOLDER_MODE = 448;
var EXTENSIONS = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };
var FRAME_FILE = /^\d{6}\.(jpg|png|webp)$/;
var ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
var isTimelapseId = (id) => ID.test(id);
var extensionOf = (type) => EXTENSIONS[type];
var frameFileName = (index, type) => `${String(index).padStart(6, "0")}.${EXTENSIONS[type]}`;
var sizeOf = (file) => stat3(file).then((s) => s.isFile() ? s.size : 0, () => 0);
var namesIn = (dir) => readdir2(dir).catch(() => []);
function timelapseFolder(root) {
  const folderOf = (id) => join4(root, id);
  const framesOf = (id) => join4(root, id, "frames");
  const write = (file, data) => writeFileAtomic(file, data, { mode: FILE_MODE, fsync: true });
  return {
    framesOf,
    framePath: (id, index, type) => join4(framesOf(id), frameFileName(index, type)),
    videoPath: (id) => join4(folderOf(id), "timelapse.mp4"),
    async create(id) {
      await mkdir(framesOf(id), { recursive: true, mode: FOLDER_MODE });
    },
    writeFrame(id, index, picture) {
      return write(join4(framesOf(id), frameFileName(index, picture.type)), picture.bytes);
    },
    /** Resolves to the bytes written. */
    async writeRecord(record) {
      const text2 = `${JSON.stringify(record, null, 2)}
`;
      await write(join4(folderOf(record.id), "metadata.json"), text2);
      return Buffer.byteLength(text2);
    },
    /** What every timelapse folder holds on disk (read once at start: it stats every frame). */
    async use() {
      const uses = [];
      for (const id of (await namesIn(root)).filter(isTimelapseId)) {
        const frameSizes = await Promise.all((await namesIn(framesOf(id))).map((name) => sizeOf(join4(framesOf(id), name))));
        const names = (await namesIn(folderOf(id))).filter((name) => name !== "frames");
        const files = await Promise.all(names.map(async (name) => [name, await sizeOf(join4(folderOf(id), name))]));
        uses.push({ id, frames: frameSizes.reduce((a, b) => a + b, 0), files });
      }
      return uses;
    },
    /** Every timelapse kept, with the folders whose metadata cannot be read (reported, left alone). */
    async readAll() {
      const names = await readdir2(root).catch((error) => {
        if (error.code === "ENOENT")
          return [];
        throw error;
      });
      const records = [];
      const unreadable = [];
      for (const id of names.filter(isTimelapseId)) {
        const text2 = await readFile(join4(folderOf(id), "metadata.json"), "utf8").catch(() => void 0);
        let record;
        try {
          record = text2 === void 0 ? void 0 : asRecord(JSON.parse(text2));
        } catch {
          record = void 0;
        }
        if (record && record.id === id)
          records.push(record);
        else
          unreadable.push(folderOf(id));
      }
      return { records, unreadable };
    },
    /**
     * The frames on disk, counted from the files: a crash between a frame and its metadata leaves
     * the frame, which counts. Temporary files of an interrupted write are removed.
     */
    async settleFrames(id) {
      const names = await readdir2(framesOf(id)).catch(() => []);
      await Promise.all(names.filter((n) => !FRAME_FILE.test(n)).map((n) => rm(join4(framesOf(id), n), { force: true, recursive: true })));
      return names.filter((n) => FRAME_FILE.test(n)).length;
    },
    remove(id) {
      return rm(folderOf(id), { recursive: true, force: true });
    }
  };
}

// dist/timelapse/video.js
import { spawn as spawn2 } from "node:child_process";
import { chmod, rename, rm as rm2 } from "node:fs/promises";
import { setPriority } from "node:os";
import { dirname as dirname3, join as join5 } from "node:path";
var VideoFailure = class extends Error {
  kind;
  constructor(kind, message) {
    super(message);
    this.kind = kind;
    this.name = "VideoFailure";
  }
};
var assemblyTimeLimitMs = (frames) => 10 * 6e4 + frames * 1e3;
var ffmpegMissing = (ffmpegPath) => `ffmpeg was not found (FFMPEG_PATH=${ffmpegPath}): install it (apt install ffmpeg) or set FFMPEG_PATH`;
function ffmpegArguments(options, target) {
  return [
    ...["-hide_banner", "-nostdin", "-loglevel", "error", "-y"],
    ...["-framerate", String(options.framerate), "-start_number", "0"],
    // A camera whose resolution changes mid-way: frames are scaled to the first one's size instead
    // of the encoder being handed a new size it cannot take.
    ...["-reinit_filter", "0"],
    ...["-i", join5(options.framesDir, `%06d.${options.extension}`)],
    // yuv420p needs even dimensions.
    ...["-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p"],
    ...["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-r", String(options.framerate)],
    ...["-movflags", "+faststart", "-f", "mp4", target]
  ];
}
async function assembleVideo(options) {
  const partial = join5(dirname3(options.output), ".timelapse.mp4.partial");
  try {
    await runFfmpeg(options, partial);
    await chmod(partial, FILE_MODE);
    await rename(partial, options.output);
  } finally {
    await rm2(partial, { force: true });
  }
}
function runFfmpeg(options, target) {
  return new Promise((resolve4, reject) => {
    if (options.signal?.aborted)
      return reject(new VideoFailure("failed", "assembly aborted"));
    const child = spawn2(options.ffmpegPath, ffmpegArguments(options, target), { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let settled = false;
    const finish = (failure) => {
      if (settled)
        return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", abort);
      if (failure) {
        child.kill("SIGKILL");
        reject(failure);
      } else {
        resolve4();
      }
    };
    const abort = () => finish(new VideoFailure("failed", "assembly aborted"));
    const timer = setTimeout(() => finish(new VideoFailure("timeout", `ffmpeg ran over its time limit of ${Math.round(options.timeLimitMs / 1e3)} s`)), options.timeLimitMs);
    options.signal?.addEventListener("abort", abort, { once: true });
    child.once("spawn", () => {
      try {
        if (child.pid)
          setPriority(child.pid, 10);
      } catch {
      }
    });
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk.toString()).slice(-1e3);
    });
    child.once("error", (error) => {
      finish(error.code === "ENOENT" ? new VideoFailure("missing", ffmpegMissing(options.ffmpegPath)) : new VideoFailure("failed", `ffmpeg could not run: ${error.message}`));
    });
    child.once("close", (code, signal) => {
      if (code === 0)
        return finish();
      const said = stderr.trim().split("\n").at(-1);
      const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
      finish(new VideoFailure("failed", said ? `ffmpeg ${how}: ${said}` : `ffmpeg ${how}`));
    });
  });
}
function ffmpegRuns(ffmpegPath) {
  return new Promise((resolve4) => {
    const child = spawn2(ffmpegPath, ["-version"], { stdio: "ignore" });
    child.once("error", () => resolve4(false));
    child.once("close", (code) => resolve4(code === 0));
  });
}
async function warnIfFfmpegMissing(ffmpegPath, log) {
  if (!await ffmpegRuns(ffmpegPath)) {
    log.warn({ ffmpeg: ffmpegPath }, `timelapse frames are taken, but no video can be made: ${ffmpegMissing(ffmpegPath)}`);
  }
}

// dist/timelapse/assembly.js
var VIDEO = "timelapse.mp4";
function videoAssembler(deps) {
  const { folder, budget, log, save } = deps;
  const assemblies = /* @__PURE__ */ new Map();
  let queue = Promise.resolve();
  async function make(record, signal) {
    try {
      await assembleVideo({
        ffmpegPath: deps.ffmpegPath,
        framesDir: folder.framesOf(record.id),
        extension: extensionOf(record.image_type),
        framerate: record.framerate,
        output: folder.videoPath(record.id),
        timeLimitMs: deps.timeLimitMs(record.frames),
        signal
      });
      const size = await stat4(folder.videoPath(record.id)).then((file) => file.size, () => 0);
      budget.setFile(record.id, VIDEO, size);
      record.ready = true;
      record.video_failure = null;
      log.info({ timelapse: record.id, frames: record.frames }, "timelapse video ready");
      return "made";
    } catch (error) {
      if (signal.aborted)
        return "aborted";
      const failure = error instanceof VideoFailure ? error : new VideoFailure("failed", reason(error));
      record.video_failure = { kind: failure.kind, message: failure.message };
      log.error({ timelapse: record.id, reason: failure.message }, `timelapse video not made: ${failure.message}`);
      return "failed";
    }
  }
  return {
    /** Queues the video of a timelapse that is assembling; it is finished once made (or given up). */
    assemble(record) {
      const abort = new AbortController();
      const done = queue.then(async () => {
        if (abort.signal.aborted || deps.closed() || !deps.kept(record.id))
          return;
        if (record.frames > 0 && await make(record, abort.signal) === "aborted")
          return;
        record.state = "finished";
        await save(record);
      });
      queue = done.catch(() => void 0);
      assemblies.set(record.id, { abort, done });
      void done.finally(() => {
        if (assemblies.get(record.id)?.done === done)
          assemblies.delete(record.id);
      });
    },
    /** Stops the assembly of a deleted timelapse, if one is queued or under way. */
    async cancel(id) {
      const assembly = assemblies.get(id);
      if (!assembly)
        return;
      assembly.abort.abort();
      await assembly.done.catch(() => void 0);
    },
    /** Stops ffmpeg (the service is stopping) and waits for the queue to settle. */
    async close() {
      for (const { abort } of assemblies.values())
        abort.abort();
      await queue;
    }
  };
}

// dist/timelapse/disk-budget.js
function diskBudget(limitBytes) {
  const kept = /* @__PURE__ */ new Map();
  let used = 0;
  const of = (id) => {
    let entry2 = kept.get(id);
    if (!entry2)
      kept.set(id, entry2 = { frames: 0, files: /* @__PURE__ */ new Map() });
    return entry2;
  };
  return {
    limitBytes,
    get usedBytes() {
      return used;
    },
    /** Nothing more may be kept: the bound is reached (never with no bound, 0). */
    full() {
      return limitBytes > 0 && used >= limitBytes;
    },
    addFrame(id, bytes) {
      of(id).frames += bytes;
      used += bytes;
    },
    /** A file written whole, replacing any earlier version of it. */
    setFile(id, name, bytes) {
      const entry2 = of(id);
      used += bytes - (entry2.files.get(name) ?? 0);
      entry2.files.set(name, bytes);
    },
    /** The timelapse's folder is gone. */
    forget(id) {
      const entry2 = kept.get(id);
      if (!entry2)
        return;
      kept.delete(id);
      used -= entry2.frames;
      for (const bytes of entry2.files.values())
        used -= bytes;
    }
  };
}
function formatBytes(bytes) {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}

// dist/timelapse/disk-use.js
function diskUse(folder, budget) {
  let measured;
  return {
    measure: () => measured ??= folder.use().then((uses) => {
      for (const use of uses) {
        budget.addFrame(use.id, use.frames);
        for (const [name, bytes] of use.files)
          budget.setFile(use.id, name, bytes);
      }
    }),
    /** The use in words, for the messages. */
    described: () => `${formatBytes(budget.usedBytes)} (${budget.usedBytes} bytes)`
  };
}

// dist/timelapse/errors.js
init_errors();
var TimelapseRunning = class extends Conflict {
};
var NoCamera = class extends Conflict {
};
var TimelapseNotFound = class extends NotFound {
};
var VideoNotReady = class extends Conflict {
};
var TimelapseStorageFull = class extends InsufficientStorage {
};
function videoRefusal(record) {
  const id = record.id;
  if (record.state === "running")
    return new VideoNotReady(`Timelapse ${id} is still running: its video is made when it ends or is stopped`);
  if (record.state === "assembling")
    return new VideoNotReady(`The video of timelapse ${id} is being assembled: try again shortly`);
  if (record.frames === 0)
    return new VideoNotReady(`Timelapse ${id} has no video: no frame was taken (the camera gave no picture)`);
  return new VideoNotReady(`The video of timelapse ${id} could not be made: ${record.video_failure?.message ?? "unknown reason"}`);
}

// dist/timelapse/metadata.js
var METADATA = "metadata.json";
function metadataWriter({ folder, budget, log, kept }) {
  const saves = /* @__PURE__ */ new Map();
  return {
    /** Writes what the record holds now; a failure is logged, never thrown. */
    save(record) {
      if (!kept(record.id))
        return Promise.resolve();
      const snapshot = { ...record };
      const next = (saves.get(record.id) ?? Promise.resolve()).then(() => folder.writeRecord(snapshot)).then((bytes) => budget.setFile(record.id, METADATA, bytes)).catch((error) => log.error({ timelapse: record.id, reason: reason(error) }, "timelapse metadata not written"));
      saves.set(record.id, next);
      return next;
    },
    /** Waits for the writes of a deleted timelapse, then forgets them. */
    async forget(id) {
      await saves.get(id);
      saves.delete(id);
    },
    /** Resolves once every write queued so far has landed. */
    async settled() {
      await Promise.all(saves.values());
    }
  };
}

// dist/timelapse/schedule.js
function slotCount(grid) {
  return Math.ceil(grid.durationMs / grid.frequencyMs);
}
function slotDue(grid, slot) {
  return grid.startMs + slot * grid.frequencyMs;
}
function endOf(grid) {
  return grid.startMs + grid.durationMs;
}
function slotAt(grid, now) {
  return Math.max(0, Math.floor((now - grid.startMs) / grid.frequencyMs));
}
function nextSlot(grid, from, now) {
  const slot = Math.max(from, slotAt(grid, now));
  return { slot, missed: Math.min(slot, slotCount(grid)) - Math.min(from, slotCount(grid)) };
}

// dist/timelapse/resume.js
async function resumeTimelapses({ folder, records, newest, runner, save, assemble, ffmpegPath, now, log }) {
  const { records: found, unreadable } = await folder.readAll();
  for (const path of unreadable)
    log.warn({ folder: path }, "timelapse folder without readable metadata: left as it is");
  for (const record of found)
    records.set(record.id, record);
  const waitingForFfmpeg = found.filter((r) => r.state === "finished" && !r.ready && r.video_failure?.kind === "missing");
  const ffmpegNow = waitingForFfmpeg.length > 0 && await ffmpegRuns(ffmpegPath);
  for (const record of newest()) {
    if (record.state === "running") {
      record.frames = await folder.settleFrames(record.id);
      if (!runner.current() && Date.parse(record.end_date) > now()) {
        log.info({ timelapse: record.id, frames: record.frames }, "timelapse resumed");
        runner.run(record, record.frames + record.failed_frames);
        continue;
      }
      record.failed_frames = Math.max(record.failed_frames, slotCount(gridOf(record)) - record.frames);
      record.state = "assembling";
      await save(record);
    }
    if (record.state === "assembling" || ffmpegNow && waitingForFfmpeg.includes(record))
      assemble(record);
  }
}

// dist/timelapse/rules.js
function timelapseConfigIssues(config, maxFrames) {
  if (config.duration < config.frequency) {
    return [
      {
        loc: ["body", "duration"],
        msg: `duration (${config.duration} s) must be at least frequency (${config.frequency} s)`,
        type: "duration_too_short"
      }
    ];
  }
  const frames = slotCount({ startMs: 0, frequencyMs: config.frequency * 1e3, durationMs: config.duration * 1e3 });
  if (frames > maxFrames) {
    return [
      {
        loc: ["body", "duration"],
        msg: `This timelapse would take ${frames} frames, more than TIMELAPSE_MAX_FRAMES (${maxFrames}): lengthen the frequency or shorten the duration`,
        type: "too_many_frames"
      }
    ];
  }
  return [];
}

// dist/timelapse/frames.js
function unlessAborted(work, signal) {
  if (signal.aborted)
    return Promise.reject(signal.reason);
  let onAbort = () => {
  };
  const aborted = new Promise((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
function frameTaker({ folder, budget, capture, now, log, save, atBound }) {
  return async function takeFrame(record, signal) {
    if (budget.full())
      return atBound(record);
    let picture;
    try {
      picture = await unlessAborted(capture(), signal);
    } catch (error) {
      if (signal.aborted)
        return;
      record.failed_frames++;
      log.warn({ timelapse: record.id, reason: reason(error) }, "timelapse frame skipped: camera not available");
      return save(record);
    }
    if (signal.aborted)
      return;
    if (record.image_type !== null && picture.type !== record.image_type) {
      record.failed_frames++;
      log.warn({ timelapse: record.id, type: picture.type, expected: record.image_type }, "timelapse frame skipped: the camera changed image type");
      return save(record);
    }
    try {
      await folder.writeFrame(record.id, record.frames, picture);
    } catch (error) {
      record.failed_frames++;
      log.error({ timelapse: record.id, reason: reason(error) }, "timelapse frame skipped: not written");
      return save(record);
    }
    budget.addFrame(record.id, picture.bytes.length);
    record.image_type = picture.type;
    record.frames++;
    record.latest_frame_date = new Date(now()).toISOString();
    const saved = save(record);
    if (budget.full())
      atBound(record);
    return saved;
  };
}

// dist/timelapse/scheduler.js
function frameScheduler(options) {
  const { grid, timers, now } = options;
  let stopped = false;
  let timer;
  let inFlight;
  const at = (time, run) => {
    const delay = time - now();
    if (delay <= 0)
      return run();
    timer = timers.set(() => {
      timer = void 0;
      if (!stopped)
        at(time, run);
    }, Math.min(delay, LONGEST_DELAY_MS));
  };
  const take = (slot) => {
    const current = options.takeFrame(slot).catch(() => void 0);
    inFlight = current;
    void current.then(() => {
      inFlight = void 0;
      advance(slot + 1);
    });
  };
  const advance = (from) => {
    if (stopped)
      return;
    const { slot, missed } = nextSlot(grid, from, now());
    if (missed > 0)
      options.onMissed(missed);
    if (slot < slotCount(grid))
      return at(slotDue(grid, slot), () => take(slot));
    at(endOf(grid), () => {
      stopped = true;
      options.onEnd();
    });
  };
  return {
    start: () => advance(options.from),
    stop() {
      stopped = true;
      if (timer !== void 0)
        timers.clear(timer);
      timer = void 0;
      return inFlight ?? Promise.resolve();
    }
  };
}

// dist/timelapse/runner.js
function timelapseRunner(deps) {
  const { budget, now, timers, log, save } = deps;
  let running;
  const takeFrame = frameTaker({ ...deps, budget, atBound: stopAtBound });
  function stopAtBound(record) {
    log.warn({ timelapse: record.id, frames: record.frames, usedBytes: budget.usedBytes, maxBytes: budget.limitBytes }, `timelapse stopped: timelapses use ${deps.described()}, TIMELAPSE_MAX_BYTES is ${budget.limitBytes}; its video is made of the frames taken`);
    void finish(record, true);
  }
  async function finish(record, stopped) {
    const current = running;
    if (current?.record !== record)
      return;
    running = void 0;
    current.abort.abort();
    await current.scheduler.stop();
    record.state = "assembling";
    if (stopped)
      record.stopped_date = new Date(now()).toISOString();
    await save(record);
    deps.assemble(record);
  }
  return {
    /** The running timelapse's record, if one runs. */
    current: () => running?.record,
    /** Takes frames from slot `from` on. */
    run(record, from) {
      const abort = new AbortController();
      const scheduler = frameScheduler({
        grid: gridOf(record),
        from,
        now,
        timers,
        takeFrame: () => takeFrame(record, abort.signal),
        onMissed: (count) => {
          record.failed_frames += count;
          void save(record);
        },
        onEnd: () => void finish(record, false)
      });
      running = { record, scheduler, abort };
      scheduler.start();
    },
    /** Stops the running timelapse, if any, and queues its video. */
    async stop() {
      if (running)
        await finish(running.record, true);
    },
    /** Stops the frames of the running one without ending it (deleted, or the service is stopping). */
    async pause() {
      const current = running;
      running = void 0;
      if (!current)
        return;
      current.abort.abort();
      await current.scheduler.stop();
    }
  };
}

// dist/timelapse/video-file.js
import { basename, dirname as dirname4 } from "node:path";
import send2 from "@fastify/send";
async function videoAnswer(request, path) {
  const file = await send2(request, `/${basename(path)}`, {
    root: dirname4(path),
    contentType: false,
    cacheControl: false,
    dotfiles: "allow",
    index: false
  });
  if (file.type === "file")
    return { kind: "file", status: file.statusCode, headers: file.headers, stream: file.stream };
  file.stream.destroy();
  if (file.statusCode === 404)
    return { kind: "gone" };
  const detail = file.type === "error" ? file.metadata.error.message : "Not a file";
  return { kind: "refused", status: file.statusCode, detail, contentRange: file.headers["Content-Range"] };
}

// dist/timelapse/service.js
var isDiskFull2 = (error) => ["ENOSPC", "EDQUOT"].includes(error?.code ?? "");
var newestFirst = (a, b) => a.start_date < b.start_date ? 1 : a.start_date > b.start_date ? -1 : 0;
function timelapseService(options) {
  const { now, log, ffmpegPath } = options;
  const folder = timelapseFolder(options.dir);
  const records = /* @__PURE__ */ new Map();
  const kept = (id) => records.has(id);
  const newest = () => [...records.values()].sort(newestFirst);
  let starting = false;
  let closed = false;
  const budget = diskBudget(options.maxBytes);
  const disk = diskUse(folder, budget);
  const { save, ...metadata } = metadataWriter({ folder, budget, log, kept });
  const timeLimitMs = options.timeLimitMs ?? assemblyTimeLimitMs;
  const assembler = videoAssembler({ folder, budget, ffmpegPath, timeLimitMs, log, save, kept, closed: () => closed });
  const assemble = assembler.assemble;
  const runner = timelapseRunner({ ...options, folder, budget, save, assemble, described: disk.described });
  async function begin(config) {
    await disk.measure();
    if (budget.full()) {
      throw new TimelapseStorageFull(`Timelapses use ${disk.described()} under TIMELAPSE_DIR, and TIMELAPSE_MAX_BYTES allows ${formatBytes(budget.limitBytes)} (${budget.limitBytes} bytes): no new timelapse can start. Free space by deleting old timelapses (DELETE /timelapse/{id}, or the Delete button on the dashboard), or raise TIMELAPSE_MAX_BYTES.`);
    }
    const record = newRecord(randomUUID3(), config, now());
    try {
      await folder.create(record.id);
      budget.setFile(record.id, METADATA, await folder.writeRecord(record));
    } catch (error) {
      if (!isDiskFull2(error))
        throw error;
      await folder.remove(record.id).catch(() => void 0);
      throw new TimelapseStorageFull(`Cannot start a timelapse: disk full. Free space on the disk holding ${resolve3(options.dir)} (TIMELAPSE_DIR); reads still work, and a timelapse can start again once there is space.`);
    }
    records.set(record.id, record);
    runner.run(record, 0);
    void warnIfFfmpegMissing(ffmpegPath, log);
    log.info({ timelapse: record.id, frequency: config.frequency, duration: config.duration }, "timelapse started");
    return { ...record };
  }
  return {
    /** Starts a timelapse: the configuration's rules that span fields first (422), then one at a time (409). */
    async start(config) {
      const issues = timelapseConfigIssues(config, options.maxFrames);
      if (issues.length > 0)
        throw new InvalidInput(...issues);
      if (runner.current() || starting)
        throw new TimelapseRunning("A timelapse is already running: stop it first");
      starting = true;
      try {
        if (options.hasCamera && !await options.hasCamera())
          throw new NoCamera("no camera: set PICTURE_SOURCE (or upload a picture with PUT /picture) before starting a timelapse");
        return await begin(config);
      } finally {
        starting = false;
      }
    },
    /** Stops the running timelapse, if any, and queues its video. */
    stop: () => runner.stop(),
    status() {
      const current = runner.current() ?? newest()[0];
      return {
        running: runner.current() !== void 0,
        metadata: current ? { ...current } : null,
        config: current ? configOf(current) : null
      };
    },
    list: () => newest().map((record) => ({ ...record })),
    /** The newest frame of the running timelapse. */
    async latestFrame() {
      const record = runner.current();
      const type = record?.image_type ?? void 0;
      const path = record && record.frames > 0 && type ? folder.framePath(record.id, record.frames - 1, type) : void 0;
      const bytes = path && await readFile2(path).catch(() => void 0);
      if (!bytes || !type)
        throw new NotFound("No timelapse frame: no timelapse is running, or it has taken no frame yet");
      return { bytes, type };
    },
    /** The video of a finished timelapse, as the request's Range and conditional headers ask for it. */
    async video(id, request) {
      const record = records.get(id);
      if (!record)
        throw new TimelapseNotFound(`Timelapse ${id} not found`);
      if (!record.ready)
        throw videoRefusal(record);
      const answer = await videoAnswer(request, folder.videoPath(id));
      if (answer.kind === "gone")
        throw new TimelapseNotFound(`Timelapse ${id} not found`);
      return answer;
    },
    /** Deletes a timelapse and its files, stopping it first if it is running (no video is made). */
    async remove(id) {
      const record = records.get(id);
      if (!record)
        throw new TimelapseNotFound(`Timelapse ${id} not found`);
      records.delete(id);
      if (runner.current() === record)
        await runner.pause();
      await assembler.cancel(id);
      await metadata.forget(id);
      await folder.remove(id);
      budget.forget(id);
      log.info({ timelapse: id, usedBytes: budget.usedBytes }, "timelapse deleted");
    },
    /** At start: see resume.ts. */
    async resume() {
      await disk.measure();
      await resumeTimelapses({ folder, records, newest, runner, save, assemble, ffmpegPath, now, log });
    },
    /** The service is stopping: frames stop (a running timelapse resumes at the next start), ffmpeg is stopped. */
    async close() {
      closed = true;
      await runner.pause();
      await assembler.close();
      await metadata.settled();
    }
  };
}

// dist/timelapse/index.js
async function register16(app, { config, services, now, log }) {
  const timelapses = timelapseService({
    dir: config.timelapseDir,
    ffmpegPath: config.ffmpegPath,
    maxFrames: config.timelapseMaxFrames,
    maxBytes: config.timelapseMaxBytes,
    capture: () => services.pictures.current(),
    hasCamera: () => services.pictures.hasCamera(),
    now,
    timers: systemTimers,
    log
  });
  app.addHook("onReady", () => timelapses.resume());
  app.addHook("onClose", () => timelapses.close());
  await app.register(routes_default11, { config, timelapses });
  return timelapses;
}

// dist/users/routes.js
init_schema_common();
import formbody from "@fastify/formbody";
import { Type as Type28 } from "@sinclair/typebox";

// dist/http/multipart.js
import multipart from "@fastify/multipart";
async function registerMultipart(app, options) {
  await app.register(multipart, options);
}

// dist/users/docs.js
var USERS_AND_PICTURE2 = "Users, tokens and picture";
var userDocs = {
  login: (limits) => doc(USERS_AND_PICTURE2, "Login For Access Token", "loginForAccessToken", `OAuth2 password flow: form fields \`username\` and \`password\` (urlencoded or multipart, or the same as JSON; \`grant_type\`, \`scope\`, \`client_id\`, \`client_secret\` are ignored). 401 for a wrong username or password, in the same time either way. After ${limits.perUsername} failed logins for one username, or ${limits.perAddress} from one address (IPv6: one /64), within ${limits.windowMs / 6e4} minutes, further attempts are refused with 429 and Retry-After until the oldest failure leaves the window; a successful login clears its username's failures.`),
  create: doc(USERS_AND_PICTURE2, "Create User Access Token", "createUserAccessToken", "Creates a user with the read and modify permissions (2|4) and returns a token for it. Same body forms as /token. 409 when the username is taken. In AUTH_MODE=enforced it needs the admin permission once a user exists; while none exists it is open and the user it creates is an administrator with every permission (31); of several first users created at the same moment only one succeeds (the others get 401). In AUTH_MODE=open it never grants admin (anyone who reaches the port may call it): the first administrator is then made with the users command-line tool."),
  logout: doc(USERS_AND_PICTURE2, "User Log Out", "userLogOut", "Ends every token the user obtained with a password (/token, /users/new/, /token/refresh) up to now, on every instance, with the event streams they opened; device tokens stay valid until revoked one by one or expired (device tokens made by the users command line before this version end too, as they did). Tokens issued afterwards work. Needs a valid bearer token in both access modes (any permission), 401 otherwise."),
  refresh: (sessionMaxDays) => doc(USERS_AND_PICTURE2, "Refresh Access Token", "refreshAccessToken", `For a valid token obtained with a password: a new one with a fresh lifetime (TOKEN_TTL_MINUTES) and the same permissions, so an open dashboard stays signed in \u2014 but never past SESSION_MAX_DAYS (${sessionMaxDays}) since the password was given: the last token ends then, and a refresh after that is 401 (log in again). The old token stays valid until it expires. A device token, an expired or revoked token, or none: 401. Both access modes.`),
  list: doc(USERS_AND_PICTURE2, "List Users", "listUsers", "Every user by username, with its permission bits (1 post_measurements, 2 read, 4 modify, 8 admin, 16 control) and creation time. Needs admin (8) in AUTH_MODE=enforced."),
  add: doc(USERS_AND_PICTURE2, "Add User", "addUser", "Creates a user with the permissions given, as bits (0..31) or a list of names (post_measurements, read, modify, admin, control). 409 when the username is taken; 422 for an unknown permission name, a password under 8 characters or a bad username (1 to 64 characters, no control characters); nothing is written then. Needs admin."),
  change: doc(USERS_AND_PICTURE2, "Change User", "changeUser", "Replaces the permissions and/or the password (fields left out stay). Tokens already issued keep at most what they had: a permission taken away applies to them at once, a new one needs a new token. A new password ends the user's tokens obtained with a password (device tokens stay). Taking admin from the last administrator: 409. 404 for an unknown user; 422 as for POST /users; nothing is written then. Needs admin."),
  remove: doc(USERS_AND_PICTURE2, "Remove User", "removeUser", "Removes the user; all its tokens stop working and its event streams end. 204; 404 for an unknown user; 409 for the last administrator. Needs admin."),
  issueToken: doc(USERS_AND_PICTURE2, "Create Device Token", "createDeviceToken", "A long-lived token for a device of the user (a pump controller, a sensor script), valid `days` (1 to 3650). It carries the user's permissions at this moment (taking one away from the user applies to it at once). The `access_token` is shown in this answer only: the service never stores it. A logout does not end it; DELETE /tokens/{token_id} does. 404 for an unknown user; 422 for a bad name or days. Needs admin."),
  listTokens: doc(USERS_AND_PICTURE2, "List Device Tokens", "listDeviceTokens", "The user's device tokens without their secret, by token_id, expired ones included, with `last_used_at` to within a minute (null: never used). A user may list its own (read), an administrator anyone's; another user's: 403. 404 for an unknown user (to an administrator)."),
  revokeToken: doc(USERS_AND_PICTURE2, "Revoke Device Token", "revokeDeviceToken", "Revokes that one device token: it stops working at once and the event streams it opened end (on every instance). 204; 404 for an unknown token. A user may revoke its own (read), an administrator anyone's; another user's: 403."),
  items: doc(USERS_AND_PICTURE2, "Read Items", "readItems", "Echoes a valid bearer token (in both access modes); 401 otherwise.")
};

// dist/users/schemas.js
import { Type as Type27 } from "@sinclair/typebox";
var oauthExtras = {
  grant_type: Type27.Optional(Type27.String({ description: 'Ignored (OAuth2 password flow: "password").' })),
  scope: Type27.Optional(Type27.String({ description: "Ignored." })),
  client_id: Type27.Optional(Type27.String({ description: "Ignored." })),
  client_secret: Type27.Optional(Type27.String({ description: "Ignored." }))
};
var PRINTABLE = "^[^\\u0000-\\u001F\\u007F]*$";
var USERNAME = { maxLength: 64, printable: new RegExp(PRINTABLE) };
var MIN_PASSWORD_LENGTH = 8;
var LoginForm = Type27.Object({
  username: Type27.String({
    minLength: 1,
    maxLength: USERNAME.maxLength,
    pattern: PRINTABLE,
    description: "1 to 64 characters, as for /users/new/."
  }),
  password: Type27.String({ minLength: 1 }),
  ...oauthExtras
}, { title: "Body_login_for_access_token_token_post", description: "Form fields (urlencoded or multipart), or the same as JSON." });
var NewUserForm = Type27.Object({
  username: Type27.String({
    minLength: 1,
    maxLength: USERNAME.maxLength,
    pattern: PRINTABLE,
    description: "1 to 64 characters, no control characters."
  }),
  password: Type27.String({ minLength: MIN_PASSWORD_LENGTH, description: `At least ${MIN_PASSWORD_LENGTH} characters.` }),
  ...oauthExtras
}, { title: "Body_create_user_access_token_users_new__post", description: "Form fields (urlencoded or multipart), or the same as JSON." });
var FORM_CONTENT_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "application/json"];
var Token = Type27.Object({ access_token: Type27.String(), token_type: Type27.Literal("bearer") }, { title: "Token" });
var TokenEcho = Type27.Object({ token: Type27.String() });
var MAX_TOKEN_DAYS = 3650;
var Username = Type27.String({
  minLength: 1,
  maxLength: USERNAME.maxLength,
  pattern: PRINTABLE,
  description: "1 to 64 characters, no control characters."
});
var Password = Type27.String({ minLength: MIN_PASSWORD_LENGTH, description: `At least ${MIN_PASSWORD_LENGTH} characters.` });
var PermissionsInput = Type27.Union([
  Type27.Integer({ minimum: 0, maximum: 31, description: "Bits: 1 post_measurements, 2 read, 4 modify, 8 admin, 16 control." }),
  Type27.Array(Type27.String({ examples: ["read"] }), {
    maxItems: 16,
    description: "Names: post_measurements, read, modify, admin, control."
  })
], { examples: [["read", "modify"]] });
var UserView = Type27.Object({
  username: Type27.String(),
  permissions: Type27.Integer({ description: "Bits: 1 post_measurements, 2 read, 4 modify, 8 admin, 16 control." }),
  created_at: Type27.String({ format: "date-time" })
}, { title: "User" });
var NewUser = Type27.Object({ username: Username, password: Password, permissions: PermissionsInput }, { title: "NewUser" });
var UserChange = Type27.Object({ permissions: Type27.Optional(PermissionsInput), password: Type27.Optional(Password) }, { title: "UserChange", description: "Either or both; a field left out stays as it is." });
var UsernameParams = Type27.Object({ username: Type27.String({ minLength: 1, maxLength: USERNAME.maxLength }) });
var TokenIdParams = Type27.Object({ token_id: Type27.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }) });
var NewDeviceToken = Type27.Object({
  name: Type27.String({ minLength: 1, maxLength: 100, pattern: PRINTABLE, description: 'What the token is for, e.g. "pump controller".' }),
  days: Type27.Integer({ minimum: 1, maximum: MAX_TOKEN_DAYS, description: `How long it is valid: 1 to ${MAX_TOKEN_DAYS} days.` })
}, { title: "NewDeviceToken" });
var IssuedDeviceToken = Type27.Object({
  token_id: Type27.Integer(),
  name: Type27.String(),
  access_token: Type27.String({ description: "The bearer token: shown this once, never stored." }),
  expires_at: Type27.String({ format: "date-time" })
}, { title: "IssuedDeviceToken" });
var DeviceTokenView = Type27.Object({
  token_id: Type27.Integer(),
  name: Type27.String(),
  created_at: Type27.String({ format: "date-time" }),
  expires_at: Type27.String({ format: "date-time" }),
  last_used_at: Type27.Union([Type27.String({ format: "date-time" }), Type27.Null()], { description: "To within a minute; null: never used." })
}, { title: "DeviceToken" });

// dist/users/routes.js
var bearer = [{ OAuth2PasswordBearer: [] }];
var userRoutes = async (app, { config, auth, services: { users } }) => {
  await app.register(formbody);
  await registerMultipart(app, {
    attachFieldsToBody: "keyValues",
    // A file part is an unknown field like any other: read past and ignored.
    onFile: async (part) => {
      for await (const _chunk of part.file)
        ;
    },
    limits: { fields: 20, fieldSize: 64 * 1024, files: 5, fileSize: 64 * 1024 }
  });
  app.post("/token", {
    config: { access: "public" },
    schema: {
      ...userDocs.login(auth.throttle.limits),
      consumes: FORM_CONTENT_TYPES,
      body: LoginForm,
      response: { 200: Token, ...errorResponses(401, 422, 429) }
    },
    handler: (request) => users.login(request.body.username, request.body.password, request.ip)
  });
  app.post("/users/new/", {
    config: { access: "admin" },
    schema: {
      ...userDocs.create,
      consumes: FORM_CONTENT_TYPES,
      body: NewUserForm,
      security: bearer,
      response: { 200: Token, ...errorResponses(401, 403, 409, 422) }
    },
    handler: (request) => {
      const bootstrap = config.authMode === "enforced" && !request.principal;
      return users.create(request.body.username, request.body.password, bootstrap, request.principal);
    }
  });
  app.post("/users/logout/", {
    config: { access: "public" },
    schema: { ...userDocs.logout, security: bearer, response: { 200: Message, ...errorResponses(401) } },
    handler: async (request) => {
      const principal = await auth.authenticate(request);
      await users.logout(principal);
      return { message: "Logged out" };
    }
  });
  app.post("/token/refresh", {
    config: { access: "public" },
    schema: { ...userDocs.refresh(config.sessionMaxDays), security: bearer, response: { 200: Token, ...errorResponses(401) } },
    handler: async (request) => users.refresh(await auth.authenticate(request))
  });
  app.get("/users", {
    config: { access: "admin" },
    schema: { ...userDocs.list, security: bearer, response: { 200: Type28.Array(UserView), ...errorResponses(401, 403) } },
    handler: () => users.list()
  });
  app.post("/users", {
    config: { access: "admin" },
    schema: { ...userDocs.add, security: bearer, body: NewUser, response: { 200: UserView, ...errorResponses(401, 403, 409, 422) } },
    handler: (request) => users.add(request.principal, request.body)
  });
  app.patch("/users/:username", {
    config: { access: "admin" },
    schema: {
      ...userDocs.change,
      security: bearer,
      params: UsernameParams,
      body: UserChange,
      response: { 200: UserView, ...errorResponses(401, 403, 404, 409, 422) }
    },
    handler: (request) => users.change(request.principal, request.params.username, request.body)
  });
  app.delete("/users/:username", {
    config: { access: "admin" },
    schema: {
      ...userDocs.remove,
      security: bearer,
      params: UsernameParams,
      response: { 204: Deleted, ...errorResponses(401, 403, 404, 409, 422) }
    },
    handler: async (request, reply) => {
      await users.remove(request.principal, request.params.username);
      return reply.code(204).send();
    }
  });
  app.post("/users/:username/tokens", {
    config: { access: "admin" },
    schema: {
      ...userDocs.issueToken,
      security: bearer,
      params: UsernameParams,
      body: NewDeviceToken,
      response: { 200: IssuedDeviceToken, ...errorResponses(401, 403, 404, 422) }
    },
    handler: (request) => users.issueToken(request.principal, request.params.username, request.body.name, request.body.days)
  });
  app.get("/users/:username/tokens", {
    config: { access: "read" },
    schema: {
      ...userDocs.listTokens,
      security: bearer,
      params: UsernameParams,
      response: { 200: Type28.Array(DeviceTokenView), ...errorResponses(401, 403, 404, 422) }
    },
    handler: (request) => users.listTokens(request.principal, request.params.username)
  });
  app.delete("/tokens/:token_id", {
    config: { access: "read" },
    schema: {
      ...userDocs.revokeToken,
      security: bearer,
      params: TokenIdParams,
      response: { 204: Deleted, ...errorResponses(401, 403, 404, 422) }
    },
    handler: async (request, reply) => {
      await users.revokeToken(request.principal, request.params.token_id);
      return reply.code(204).send();
    }
  });
  app.get("/users/items/", {
    config: { access: "public" },
    schema: { ...userDocs.items, security: bearer, response: { 200: TokenEcho, ...errorResponses(401) } },
    handler: async (request) => {
      const principal = await auth.authenticate(request);
      return { token: principal.token };
    }
  });
};
var routes_default12 = userRoutes;

// dist/users/index.js
async function register17(app, deps) {
  await app.register(routes_default12, deps);
}

// dist/app.js
function registerDraining(app, drain) {
  let draining = false;
  app.decorate("drain", () => drain.start());
  let sweeper;
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (draining || drain.draining)
      reply.header("connection", "close");
    done(null, payload);
  });
  app.addHook("preClose", async () => {
    draining = true;
    sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
    sweeper.unref();
  });
  app.addHook("onClose", async () => {
    clearInterval(sweeper);
  });
  return () => draining || drain.draining;
}
var EXPOSED_HEADERS = ["Content-Disposition"];
function requestIds() {
  let next = 0;
  return () => {
    next = next + 1 & 2147483647;
    return `req-${next.toString(36)}`;
  };
}
async function buildApp(config, store, options = {}) {
  let front;
  const nextRequestId = requestIds();
  const drain = drainer();
  const app = Fastify({
    serverFactory: (handler) => httpServer(config, drain.wrap((req, res) => front ? front(req, res, handler) : handler(req, res))),
    genReqId: nextRequestId,
    logger: options.logger ?? { level: config.logLevel },
    // Fastify's two lines per request are replaced by the one `request` line below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors raised before any route runs answer `{"detail": …}` too.
    frameworkErrors,
    clientErrorHandler
  }).withTypeProvider();
  app.setValidatorCompiler(validatorCompiler());
  app.removeContentTypeParser("text/plain");
  registerErrorHandling(app, isStoreUnavailable, isMissingReference, { is: isDiskFull, storeDisk: storeDiskOf(config.databaseUrl) });
  registerNosniff(app);
  const logsRequests = ["info", "debug", "trace"].includes(app.log.level);
  if (logsRequests) {
    app.addHook("onResponse", (request, reply, done) => {
      request.log.info({ method: request.method, url: withoutToken(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 }, "request");
      done();
    });
  }
  const draining = registerDraining(app, drain);
  const metrics = createMetrics({ poolUse: store.poolUse });
  app.addHook("onResponse", (request, reply, done) => {
    metrics.request(request.method, request.is404 ? void 0 : request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1e3);
    done();
  });
  await app.register(cors, {
    origin: config.corsOrigins === "*" ? "*" : config.corsOrigins,
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowedHeaders: ["Content-Type", "Authorization"],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600
  });
  await registerDocs(app);
  const now = options.now ?? Date.now;
  const log = app.log;
  const auth = await createAuth(config, store, now, options.loginLimits);
  const bus = options.bus ?? changeBus({ onListenerError: (error, topic) => app.log.error({ err: error, topic }, "change listener failed") });
  const services = createServices({ store, bus, now, log }, config, auth, options.liveEvents?.timers ?? systemTimers);
  const deps = {
    config,
    store,
    bus,
    now,
    log,
    services,
    auth,
    metrics,
    drain,
    liveEventsOptions: options.liveEvents,
    alertsOptions: options.alerts,
    backupOptions: options.backup
  };
  await register3(app, deps);
  const mqtt2 = await register9(app, deps);
  const backup = await register11(app, deps);
  await register10(app, { ...deps, mqttState: mqtt2?.state, backupStatus: backup?.status });
  await register13(app, deps);
  await register15(app, deps);
  await register8(app, deps);
  await register7(app, deps);
  await register(app, deps);
  await register5(app, deps);
  await register17(app, deps);
  await register12(app, deps);
  await register16(app, deps);
  await register6(app, deps);
  await register2(app, deps);
  await register14(app, deps);
  await register4(app, deps);
  if ((options.hotReads ?? true) && config.authMode === "open" && config.corsOrigins === "*") {
    front = hotReads({
      polled: store.polled,
      actuatorState: services.actuators.polledState,
      exposedHeaders: EXPOSED_HEADERS,
      headers: NOSNIFF,
      active: () => !draining(),
      // The same series the routes feed, bound once: these reads are counted without a lookup.
      observe: {
        last: metrics.observer("GET", "/measurements/:sensor_id/last", 200),
        state: metrics.observer("GET", "/actuators/:actuator_id/state", 200)
      },
      log: logsRequests ? { logger: app.log, nextRequestId } : void 0
    });
  }
  return app;
}

// dist/auth/startup-notes.js
var MAKE_ADMIN = "npm run users -- add NAME --permissions read,modify,admin";
async function logAccessNotes(log, config, store) {
  const users = await store.users.list();
  const hasAdmin = users.some((user) => (user.permissions & PERMISSIONS.admin) !== 0);
  if (config.authMode === "open") {
    log.warn({ auth: "open", host: config.host }, `AUTH_MODE=open: anyone who reaches this port can change settings, create users and replace all data; bind HOST=127.0.0.1 or use AUTH_MODE=enforced on a shared network. /users/new/ grants no admin permission in this mode: make administrators with \`${MAKE_ADMIN}\``);
    return;
  }
  if (users.length === 0) {
    log.info({ auth: "enforced" }, `no user yet: the first POST /users/new/ creates the administrator, or run \`${MAKE_ADMIN}\``);
  } else if (!hasAdmin) {
    log.warn({ auth: "enforced" }, `no administrator: no one can create users over HTTP; make one with \`${MAKE_ADMIN}\``);
  }
}

// dist/cli/entry.js
import { realpathSync } from "node:fs";
import { fileURLToPath as fileURLToPath2 } from "node:url";
function isEntry(moduleUrl) {
  const started = process.argv[1];
  if (!started)
    return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath2(moduleUrl));
  } catch {
    return false;
  }
}

// dist/server.js
init_store();
var HELP = `Usage: sensorhub serve

Runs the service until SIGTERM or SIGINT, then finishes the requests in flight and stops.
The settings come from the environment and a .env file in the working directory (see .env.example):
DATABASE_URL (default sqlite:./data/sensorhub.db), PORT (8000), HOST (0.0.0.0), AUTH_MODE, \u2026`;
async function serve() {
  if (existsSync3(".env"))
    process.loadEnvFile(".env");
  const config = loadConfig();
  const log = (details, msg) => console.log(JSON.stringify({ level: 30, time: Date.now(), ...details, msg }));
  const store = await openStore(config.databaseUrl, { ...storeOptions(config), log });
  const app = await buildApp(config, store);
  for (const { path, mode } of store.exposedFiles()) {
    app.log.warn({ path, mode }, "store file or folder is readable by other users; it holds password hashes and the token secret: chmod 0600 files, 0700 folder");
  }
  let closing = false;
  const shutdown = async (signal) => {
    if (closing)
      return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    try {
      await app.drain();
      await app.close();
      await store.close();
      app.log.info("stopped");
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  await logAccessNotes(app.log, config, store);
  app.log.info({ port, store: store.kind, auth: config.authMode }, "sensorhub ready");
}
async function main(argv) {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(HELP);
    return 0;
  }
  if (argv.length > 0) {
    console.error(`sensorhub serve: takes no arguments (got ${argv.join(" ")}); settings come from the environment

${HELP}`);
    return 2;
  }
  try {
    await serve();
    return void 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`sensorhub: configuration error: ${error.message}`);
    } else {
      console.error("sensorhub: failed to start:", error instanceof Error ? error.message : error);
    }
    return 1;
  }
}
if (isEntry(import.meta.url)) {
  void main(process.argv.slice(2)).then((code) => {
    if (code !== void 0)
      process.exit(code);
  });
}
export {
  main,
  serve
};
