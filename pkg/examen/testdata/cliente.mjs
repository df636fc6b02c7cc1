// A student's client for Lesson 6 in Node (20 or later), written to the contract of
// `revisor comprobar cliente`: register NOMBRE URL through the gateway once, whatever happens.
// --defecto espera-fija waits 500 ms between attempts instead of a growing, random wait.
import { randomUUID } from "node:crypto";
import { setTimeout as dormir } from "node:timers/promises";

let args = process.argv.slice(2);
let defecto = "";
if (args[0] === "--defecto") {
  defecto = args[1];
  args = args.slice(2);
}
const [nombre, url] = args;
const pasarela = process.env.PASARELA_URL ?? "http://127.0.0.1:18082";
const llave = randomUUID();
const cuerpo = JSON.stringify({ nombre, url });

async function intentar() {
  try {
    const r = await fetch(pasarela + "/servicios", {
      method: "POST",
      headers: { Authorization: "Bearer escritura-a", "Content-Type": "application/json", "Idempotency-Key": llave },
      body: cuerpo,
      signal: AbortSignal.timeout(5000), // generous: a loaded machine starts fetch slowly
    });
    const texto = await r.text();
    let tipo = "";
    try { tipo = JSON.parse(texto).type ?? ""; } catch {}
    const ra = r.headers.get("retry-after");
    return { codigo: r.status, tipo, retryAfter: ra !== null && /^\d+$/.test(ra) ? Number(ra) : null };
  } catch {
    return { codigo: 0, tipo: "", retryAfter: null };
  }
}

function reintentable({ codigo, tipo }) {
  if (codigo === 0) return true;
  if (codigo === 409) return tipo.endsWith("/llave-en-curso");
  return [408, 429, 502, 503, 504].includes(codigo);
}

for (let n = 1; ; n++) {
  const r = await intentar();
  console.log(`intento ${n}: ${r.codigo || "sin respuesta"} ${r.tipo}`);
  if (r.codigo >= 200 && r.codigo < 300) process.exit(0);
  if (!reintentable(r) || n >= 4) process.exit(1);
  if (r.retryAfter !== null) {
    if (r.retryAfter > 5) process.exit(1);
    await dormir(r.retryAfter * 1000);
  } else if (defecto === "espera-fija") {
    await dormir(500);
  } else {
    await dormir(Math.random() * Math.min(2000, 250 * 2 ** n));
  }
}
