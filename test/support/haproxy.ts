/** HAProxy's view of each server of backend `instances`: `UP`, `DOWN`, `UP 1/2`… */
export async function serverStates(stats: string): Promise<Record<string, string>> {
  const csv = await (await fetch(`${stats}/stats;csv`)).text();
  const [header = '', ...rows] = csv.trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const at = (name: string) => columns.indexOf(name);
  return Object.fromEntries(
    rows
      .map((r) => r.split(','))
      .filter((c) => c[at('pxname')] === 'instances' && c[at('svname')] !== 'BACKEND')
      .map((c) => [c[at('svname')], c[at('status')]]),
  );
}
