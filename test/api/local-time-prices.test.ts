import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { TEST_BACKENDS } from '../support/env.js';
import { refreshPriceDaily } from '../../src/repositories/prices/rollup.js';

interface PriceRow {
  datetime: string;
  bidding_zone: string;
  price_mwh: number;
  interpolated: boolean;
  year: number;
}

interface Body {
  meta: Record<string, unknown>;
  data: PriceRow[];
}

/** Three zones in three time zones (UTC+0, +1, +2 in winter). */
const ZONES = { PT: 'Europe/Lisbon', DE_LU: 'Europe/Berlin', FI: 'Europe/Helsinki' } as const;
type Code = keyof typeof ZONES;

/** 15-minute prices over the days around both 2026 DST switches (the same instant in all three zones). */
const WINDOWS = [
  { from: '2026-03-26T00:00:00Z', to: '2026-04-02T00:00:00Z', spring: true },
  { from: '2026-10-22T00:00:00Z', to: '2026-10-29T00:00:00Z', spring: false },
];

/** A deterministic, irregular price of a zone at an instant (EUR/MWh), some negative. */
function priceAt(zoneIndex: number, ms: number): number {
  const i = ms / 900_000;
  return Math.round((((i * 37 + zoneIndex * 101) % 211) - 25.5 + zoneIndex * 3.25) * 100) / 100;
}

/** Local wall-clock parts of an instant, read with Intl (independent of the API's formatting). */
function wall(ms: number, tz: string): { day: string; hour: number; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      weekday: 'short',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), weekday: parts.weekday! };
}

describe.each(TEST_BACKENDS)('prices with a time zone on %s', (backend) => {
  it.override({ backend, seed: 'empty' });
  const t = blockApp(it);
  const loaded = blockSetup();
  it.beforeEach(
    () =>
      loaded.run(async () => {
        const codes = Object.keys(ZONES);
        const values: string[] = [];
        codes.forEach((code, zi) => {
          for (const w of WINDOWS) {
            for (let ms = Date.parse(w.from); ms < Date.parse(w.to); ms += 900_000) {
              const interpolated = (ms / 900_000) % 97 === 0;
              values.push(`('${code}', '${new Date(ms).toISOString()}', ${priceAt(zi, ms)}, ${interpolated})`);
            }
          }
        });
        await t.db.execScript(`
          INSERT INTO price_point (zone_id, ts, period_minutes, price_eur_mwh, interpolated, source)
          SELECT z.id, v.ts::timestamptz, 15, v.price, v.interpolated, 'demo'
          FROM (VALUES ${values.join(',')}) AS v(code, ts, price, interpolated) JOIN zone z ON z.code = v.code`);
        for (const w of WINDOWS) await refreshPriceDaily(t.db, { from: new Date(w.from), to: new Date(w.to) });
      }),
    120_000,
  );

  async function get(params: Record<string, string | string[]>): Promise<Response> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) qs.append(k, x);
    return t.get(`/api/v1/prices?${qs}`);
  }

  async function rows(params: Record<string, string | string[]>): Promise<Body> {
    const res = await get(params);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Body;
  }

  /** Native rows of a zone (fetched without tz, a day at a time: the native cap), as instants and prices. */
  async function native(
    code: Code,
    from: string,
    to: string,
  ): Promise<{ ms: number; price: number; interpolated: boolean }[]> {
    const out: { ms: number; price: number; interpolated: boolean }[] = [];
    for (let ms = Date.parse(from); ms < Date.parse(to); ms += 86_400_000) {
      const day = (x: number) => new Date(x).toISOString().slice(0, 10);
      const body = await rows({
        zone: code,
        datetime_from: day(ms),
        datetime_to: day(ms + 86_400_000),
        resolution: 'native',
      });
      expect(body.meta).not.toHaveProperty('time_zone');
      out.push(
        ...body.data.map((r) => ({ ms: Date.parse(r.datetime), price: r.price_mwh, interpolated: r.interpolated })),
      );
    }
    return out;
  }

  /** Time-weighted (equal 15-minute periods) means per local key of the native rows. */
  function meansBy(points: { ms: number; price: number; interpolated: boolean }[], key: (ms: number) => string) {
    const out = new Map<string, { sum: number; n: number; interpolated: boolean }>();
    for (const p of points) {
      const k = key(p.ms);
      const s = out.get(k) ?? { sum: 0, n: 0, interpolated: false };
      s.sum += p.price;
      s.n += 1;
      s.interpolated ||= p.interpolated;
      out.set(k, s);
    }
    return out;
  }

  for (const [code, tz] of Object.entries(ZONES) as [Code, string][]) {
    for (const w of WINDOWS) {
      const day = w.spring ? '2026-03-29' : '2026-10-25';
      it(`${code}: the local day ${day} in ${tz} has ${w.spring ? 23 : 25} hourly rows and its mean over the local day`, async () => {
        const nat = await native(code, w.from, w.to);
        const inDay = nat.filter((p) => wall(p.ms, tz).day === day);
        const hourly = await rows({
          zone: code,
          datetime_from: day,
          datetime_to: w.spring ? '2026-03-30' : '2026-10-26',
          resolution: '1H',
          tz: tz.toLowerCase(),
        });
        expect(hourly.meta.time_zone).toBe(tz);
        expect(hourly.data).toHaveLength(w.spring ? 23 : 25);
        expect(hourly.data[0]!.datetime).toBe(
          `${day}T00:00:00${w.spring ? { PT: 'Z', DE_LU: '+01:00', FI: '+02:00' }[code].replace('Z', '+00:00') : { PT: '+01:00', DE_LU: '+02:00', FI: '+03:00' }[code]}`,
        );
        const hourMeans = meansBy(inDay, (ms) => String(Math.floor(ms / 3_600_000)));
        for (const r of hourly.data) {
          const m = hourMeans.get(String(Date.parse(r.datetime) / 3_600_000))!;
          expect(r.price_mwh).toBeCloseTo(m.sum / m.n, 3);
        }

        const daily = await rows({ zone: code, datetime_from: w.from, datetime_to: w.to, resolution: '1D', tz });
        const dayMeans = meansBy(nat, (ms) => wall(ms, tz).day);
        const row = daily.data.find((r) => r.datetime.startsWith(day))!;
        expect(row.datetime).toBe(hourly.data[0]!.datetime);
        const m = dayMeans.get(day)!;
        expect(m.n).toBe((w.spring ? 23 : 25) * 4);
        expect(row.price_mwh).toBeCloseTo(m.sum / m.n, 3);
        expect(row.interpolated).toBe(m.interpolated);
        const next = daily.data[daily.data.indexOf(row) + 1]!;
        expect(Date.parse(next.datetime) - Date.parse(row.datetime)).toBe((w.spring ? 23 : 25) * 3_600_000);
      });
    }

    it(`${code}: local weeks start on Monday 00:00 in ${tz} and average their native rows`, async () => {
      const w = WINDOWS[1]!;
      const nat = await native(code, w.from, w.to);
      const weekly = await rows({
        zone: code,
        datetime_from: w.from,
        datetime_to: w.to,
        resolution: '1W',
        tz: 'local',
      });
      expect(weekly.meta.time_zone).toBe('local');
      const mondayOf = (ms: number) => {
        let m = ms;
        while (wall(m, tz).weekday !== 'Mon') m -= 86_400_000;
        return wall(m, tz).day;
      };
      const weekMeans = meansBy(nat, mondayOf);
      expect(weekly.data.map((r) => r.datetime.slice(0, 10))).toEqual([...weekMeans.keys()]);
      for (const r of weekly.data) {
        expect(r.datetime.slice(11, 19)).toBe('00:00:00');
        expect(wall(Date.parse(r.datetime), tz)).toMatchObject({ hour: 0, weekday: 'Mon' });
        const m = weekMeans.get(r.datetime.slice(0, 10))!;
        expect(r.price_mwh).toBeCloseTo(m.sum / m.n, 3);
      }
    });
  }

  it('native rows keep their instants and five fields, written with the local offset', async () => {
    const plain = await rows({
      zone: 'DE_LU',
      datetime_from: '2026-10-25T00:00:00Z',
      datetime_to: '2026-10-25T02:00:00Z',
      resolution: 'native',
    });
    const local = await rows({
      zone: 'DE_LU',
      datetime_from: '2026-10-25T00:00:00Z',
      datetime_to: '2026-10-25T02:00:00Z',
      resolution: 'native',
      tz: 'local',
    });
    expect(local.data.map((r) => Date.parse(r.datetime))).toEqual(plain.data.map((r) => Date.parse(r.datetime)));
    expect(local.data.map((r) => r.datetime.slice(0, 19).slice(11) + r.datetime.slice(19))).toContain('02:45:00+02:00');
    expect(local.data.map((r) => r.datetime.slice(11))).toContain('02:00:00+01:00');
    expect(Object.keys(local.data[0]!)).toEqual(Object.keys(plain.data[0]!));
    expect(Object.keys(local.data[0]!)).toHaveLength(5);
  });

  it('tz=UTC gives exactly the no-tz output apart from meta.time_zone', async () => {
    const q = { zone: ['PT', 'FI'], datetime_from: '2026-03-28', datetime_to: '2026-03-31', resolution: '1D' };
    const plain = await rows(q);
    const utc = await rows({ ...q, tz: 'utc' });
    expect(utc.data).toEqual(plain.data);
    expect(utc.meta).toEqual({ ...plain.meta, time_zone: 'UTC' });
  });

  it("naive bounds are read in the zone given, and under local in the zones' shared time zone", async () => {
    const berlin = await rows({
      zone: 'DE_LU',
      datetime_from: '2026-03-29',
      datetime_to: '2026-03-30',
      tz: 'Europe/Berlin',
    });
    expect(berlin.meta.resolved_datetime_from).toBe('2026-03-28T23:00:00');
    expect(berlin.meta.resolved_datetime_to).toBe('2026-03-29T22:00:00');
    const local = await rows({ zone: 'FI', datetime_from: '2026-10-25', datetime_to: '2026-10-26', tz: 'local' });
    expect(local.meta.resolved_datetime_from).toBe('2026-10-24T21:00:00');
    expect(local.meta.resolved_datetime_to).toBe('2026-10-25T22:00:00');
  });

  it('under local, a naive bound over zones in several time zones is a 422 on tz; offsets are fine', async () => {
    const res = await get({
      zone: ['PT', 'FI'],
      datetime_from: '2026-10-25',
      datetime_to: '2026-10-26T00:00:00Z',
      tz: 'local',
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[]; msg: string }[] };
    expect(body.detail[0]!.loc).toEqual(['query', 'tz']);
    expect(body.detail[0]!.msg).toMatch(/offset/);
    const ok = await rows({
      zone: ['PT', 'FI'],
      datetime_from: '2026-10-25T00:00:00Z',
      datetime_to: '2026-10-26T00:00:00Z',
      tz: 'local',
      resolution: '1H',
    });
    expect(ok.data.filter((r) => r.bidding_zone === 'PT')[0]!.datetime).toBe('2026-10-25T01:00:00+01:00');
    expect(ok.data.filter((r) => r.bidding_zone === 'FI')[0]!.datetime).toBe('2026-10-25T03:00:00+03:00');
  });

  it('an unknown time zone is a 422 on tz naming it, with the closest name', async () => {
    const res = await get({ zone: 'DE_LU', tz: 'Europe/Berln' });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: string[]; msg: string; input: unknown }[] };
    expect(body.detail[0]!.loc).toEqual(['query', 'tz']);
    expect(body.detail[0]!.msg).toContain("'Europe/Berln'");
    expect(body.detail[0]!.msg).toContain('did you mean Europe/Berlin');
  });

  it('the caps of native and 1H count real hours', async () => {
    const res = await get({
      zone: 'DE_LU',
      datetime_from: '2026-10-24T00:00:00',
      datetime_to: '2026-10-26T00:00:00',
      resolution: 'native',
      tz: 'Europe/Berlin',
    });
    expect(res.status).toBe(422);
    const ok = await get({
      zone: 'DE_LU',
      datetime_from: '2026-03-28T00:00:00',
      datetime_to: '2026-03-30T00:00:00',
      resolution: 'native',
      tz: 'Europe/Berlin',
    });
    expect(ok.status).toBe(200);
  });

  it('price KPIs read naive bounds in the time zone: a local day of 25 hours, meta.time_zone set', async () => {
    const kpis = async (params: Record<string, string>) => {
      const res = await t.get(`/api/v1/price-kpis?${new URLSearchParams({ zone: 'DE_LU', ...params })}`);
      expect(res.status).toBe(200);
      return (await res.json()) as { meta: Record<string, unknown>; data: { hours: number; mean: number }[] };
    };
    const local = await kpis({ datetime_from: '2026-10-25', datetime_to: '2026-10-26', tz: 'local' });
    const explicit = await kpis({
      datetime_from: '2026-10-25T00:00:00+02:00',
      datetime_to: '2026-10-26T00:00:00+01:00',
    });
    expect(local.meta.time_zone).toBe('local');
    expect(explicit.meta).not.toHaveProperty('time_zone');
    expect(local.data[0]!.hours).toBe(25);
    expect(local.data).toEqual(explicit.data);
  });
});
