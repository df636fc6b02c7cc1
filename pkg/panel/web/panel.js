// The timeline: every event the programs send (pkg/eventos) arrives through /flujo and is placed
// in its trace; a trace is drawn as one row per attempt across the lanes cliente → pasarela →
// revisor → laboratorio. Events may arrive in any order: each trace is drawn again from what is
// known of it, so a late parent puts its children in their row.
"use strict";

const CARRILES = ["cliente", "pasarela", "revisor", "laboratorio"];

// What the gateway says became of a request, with its mark and the border of its cell: the
// gateway's own table (eventos.Desenlaces), which the panel puts in the page as JSON.
const DESENLACES = Object.fromEntries(
  JSON.parse(document.getElementById("desenlaces").textContent).map((d) => [d.id, d]));
DESENLACES[""] = { marca: "? la pasarela no dijo qué pasó" };
const TOPE_TRAZAS = 40;
const trazas = new Map(); // trace id → {id, eventos: Map, primero}
const sucias = new Set();
let pedido = false;
let elegida = null; // the trace the reader opened; null: the newest is open

const $ = (sel) => document.querySelector(sel);

// Whom the panel served the page to: «profesor», a browser with the instructor's session (an
// HttpOnly cookie the scripts never see, sent with the page's own requests), or «lectura»: the
// page only shows, and says so at its top.
const PROFESOR = (document.querySelector('meta[name="acceso"]') || {}).content === "profesor";

function enviar(ruta, cuerpo) {
  return fetch(ruta, { method: "POST", body: cuerpo, credentials: "same-origin" });
}

function carril(ev) {
  if (ev.programa === "alta-segura") return "cliente";
  if (ev.programa === "pasarela") return "pasarela";
  if (ev.programa === "revisor") return "revisor";
  if (ev.programa === "laboratorio") return "laboratorio";
  return null;
}

// instante is an event's start in milliseconds, with the microseconds RFC 3339 carries (Date.parse
// keeps only milliseconds, and the strings do not sort: their fractions vary in length).
function instante(s) {
  const m = /\.(\d+)/.exec(s || "");
  const fraccion = m ? Number("0." + m[1]) * 1000 : 0;
  return Date.parse((s || "").replace(/\.\d+/, "")) + fraccion;
}

function recibir(ev) {
  // The gateway's own routes (the control, the ledger) are not part of anybody's journey.
  if (ev.ruta && ev.ruta.startsWith("/_pasarela/")) return;
  ev.t = instante(ev.inicio);
  const id = ev.traza || "sin-traza";
  let t = trazas.get(id);
  if (!t) {
    t = { id, eventos: new Map(), primero: ev.t };
    trazas.set(id, t);
  }
  t.eventos.set(ev.tipo + ":" + (ev.tramo || t.eventos.size), ev);
  if (ev.t < t.primero) t.primero = ev.t;
  sucias.add(id);
  if (!pedido) {
    pedido = true;
    requestAnimationFrame(dibujarSucias);
  }
}

function dibujarSucias() {
  pedido = false;
  for (const id of sucias) dibujar(trazas.get(id));
  sucias.clear();
  ordenar();
  resumir();
}

// el crea un elemento con sus atributos y sus hijos (texto o elementos).
function el(etiqueta, attrs, ...hijos) {
  const e = document.createElement(etiqueta);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, String(v));
    else e.setAttribute(k, v);
  }
  for (const h of hijos) {
    if (h === null || h === undefined || h === "") continue;
    e.append(typeof h === "string" ? document.createTextNode(h) : h);
  }
  return e;
}

function ms(x) {
  if (x === undefined) return "";
  if (x < 10) return x.toFixed(2) + " ms";
  if (x < 10000) return Math.round(x) + " ms";
  return (x / 1000).toFixed(1) + " s";
}

function corta(id) {
  return id ? id.slice(0, 8) + "…" : "";
}

// La fila de un evento: el intento del cliente del que cuelga, o, sin cliente que lo diga, su
// antepasado más alto conocido.
function raizDe(ev, tramos) {
  let r = ev;
  for (let pasos = 0; pasos < 50; pasos++) {
    if (r.tipo === "intento") return r;
    const padre = r.padre && tramos.get(r.padre);
    if (!padre || padre.tipo === "intencion") return r;
    r = padre;
  }
  return r;
}

function dibujar(t) {
  const eventos = [...t.eventos.values()].sort((a, b) => a.t - b.t);
  const tramos = new Map();
  for (const ev of eventos) if (ev.tramo && ev.tipo !== "intencion") tramos.set(ev.tramo, ev);
  const intencion = eventos.find((e) => e.tipo === "intencion");
  if (intencion) tramos.set(intencion.tramo, intencion);

  const filas = new Map();
  for (const ev of eventos) {
    if (ev.tipo === "intencion") continue;
    const raiz = raizDe(ev, tramos);
    let f = filas.get(raiz.tramo);
    if (!f) {
      f = { raiz, carriles: { cliente: [], pasarela: [], revisor: [], laboratorio: [] } };
      filas.set(raiz.tramo, f);
    }
    const c = carril(ev);
    if (c) f.carriles[c].push(ev);
  }
  const orden = [...filas.values()].sort((a, b) => {
    if (a.raiz.intento && b.raiz.intento) return a.raiz.intento - b.raiz.intento;
    return a.raiz.t - b.raiz.t;
  });

  const intentos = orden.filter((f) => f.raiz.tipo === "intento");
  let titulo;
  const nombre = intencion ? intencion.nombre : undefined;
  if (intencion) {
    const n = intencion.intento || intentos.length;
    titulo = `alta «${intencion.nombre}» · ${n} ${n === 1 ? "intento" : "intentos"} · ${intencion.resultado || ""}`;
  } else if (intentos.length > 0) {
    titulo = `alta en curso · ${intentos.length} ${intentos.length === 1 ? "intento" : "intentos"}`;
  } else {
    const r = orden[0] && orden[0].raiz;
    titulo = r ? `${r.metodo || ""} ${r.ruta || ""}` : "traza";
  }
  const llave = (intencion && intencion.llave) || eventos.map((e) => e.llave).find(Boolean);
  // The header is the trace's compact row: when, what, and each attempt's outcome for its client,
  // so the last intents stay in sight with only the chosen one open.
  const resumen = intentos.map((f) => {
    const ev = f.carriles.cliente.find((e) => e.tipo === "intento");
    return ev && ev.codigo >= 200 && ev.codigo < 300 ? "✔" : "✘";
  }).join(" ");
  const hora = new Date(t.primero);
  const art = el("article", { class: "traza", "data-traza": t.id, "data-nombre": nombre, "data-inicio": t.primero },
    el("header", { role: "button", tabindex: "0", "aria-expanded": "false" },
      el("time", { datetime: hora.toISOString() }, hora.toLocaleTimeString("es-ES", { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false })),
      el("h2", { title: titulo }, titulo),
      resumen ? el("span", { class: "intentos", "aria-label": "lo que vio el cliente en cada intento" }, resumen) : "",
      el("p", null, el("span", { class: "id", title: t.id }, "traza " + corta(t.id)),
        llave ? " · llave " : "", llave ? el("span", { class: "id" }, llave) : "")),
    ...orden.map(dibujarFila));
  art.querySelector("header").addEventListener("click", () => elegir(t.id));
  art.querySelector("header").addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      elegir(t.id);
    }
  });
  const viejo = document.querySelector(`article.traza[data-traza="${CSS.escape(t.id)}"]`);
  if (viejo) viejo.replaceWith(art);
  else $("#trazas").prepend(art);
  const vacio = $("#vacio");
  if (vacio) vacio.remove();
}

// elegir opens a trace (a click on its row) and closes the others; choosing it again goes back to
// following the newest.
function elegir(id) {
  elegida = elegida === id ? null : id;
  ordenar();
}

function dibujarFila(f) {
  const attrs = { class: "fila", role: "row" };
  if (f.raiz.tipo === "intento") attrs["data-intento"] = f.raiz.intento;
  const celdas = CARRILES.map((c) => dibujarCelda(c, f.carriles[c]));
  if (f.carriles.cliente.length === 0) {
    // curl and the like: a client that sends no traceparent of its own.
    celdas[0].append(el("div", { class: "item" }, el("span", { class: "linea detalle" }, "un cliente sin traza (curl)")));
  }
  return el("div", attrs, ...celdas);
}

function dibujarCelda(c, evs) {
  const attrs = { class: "celda", role: "cell", "data-carril": c };
  const items = [];
  for (const ev of evs) {
    const it = dibujarEvento(c, ev, attrs);
    if (it) items.push(it);
  }
  return el("div", attrs, ...items);
}

function marca(texto, clase) {
  return el("span", { class: "marca " + (clase || "") }, texto);
}

// dibujarEvento draws one event in its lane, and notes on the cell what a test or a reader looks
// for: the codes, and whether the answer was lost.
function dibujarEvento(c, ev, celda) {
  const linea = (clase, ...hijos) => el("span", { class: "linea " + clase }, ...hijos);
  if (ev.tipo === "intento") {
    celda["data-codigo"] = ev.codigo || "";
    const recibio = ev.codigo ? `recibió ${ev.codigo}` : ev.resultado || "sin respuesta";
    const bien = ev.codigo >= 200 && ev.codigo < 300;
    return el("div", { class: "item" },
      linea("principal", `intento ${ev.intento}`),
      linea("", bien ? marca("✔", "bien") : marca("✘", "mal"), " " + recibio),
      linea("detalle", `${ev.metodo || ""} ${ev.ruta || ""} · ${ms(ev.ms)}`, ev.falla ? ` · X-Simular: ${ev.falla}` : ""));
  }
  if (c === "pasarela") {
    // The marks come from the gateway's desenlace (pkg/eventos), what the client lived, never from
    // comparing codes: a cut answer carries the revisor's status line and is still no answer.
    const d = DESENLACES[ev.desenlace] || DESENLACES[""];
    celda["data-revisor"] = ev.revisor || "";
    celda["data-cliente"] = ev.codigo || "";
    celda["data-desenlace"] = ev.desenlace || "";
    if (d.borde) celda["data-" + d.borde] = "si";
    const revisor = ev.revisor ? `revisor ${ev.revisor}` : (ev.desenlace === "nunca-llego" ? "el revisor no la vio" : "el revisor no respondió");
    const cliente = d.cliente || (ev.codigo ? `cliente ${ev.codigo}` : "cliente sin respuesta");
    // A gateway that says yes to a write the revisor never saw: the lesson's worst case.
    const mentira = ev.desenlace === "nunca-llego" && ev.codigo >= 200 && ev.codigo < 300 && ev.metodo !== "GET" && ev.metodo !== "HEAD";
    return el("div", { class: "item" },
      linea("principal", `${revisor} → ${cliente}`),
      linea("", marca(d.marca, d.bien ? "bien" : "mal")),
      mentira ? linea("", marca("⚠ la pasarela dijo que sí a una escritura que nadie hizo", "mal")) : "",
      linea("detalle", ev.falla ? `falla ${ev.falla} · ` : "", ev.resultado ? ev.resultado + " · " : "", ms(ev.ms)));
  }
  if (ev.tipo === "sonda") {
    return el("div", { class: "item" },
      linea("", `sonda → ${ev.codigo || ev.resultado}`),
      linea("detalle", `GET ${ev.ruta} · ${ms(ev.ms)}`));
  }
  // A server's request: the revisor's or the bench's.
  if (ev.codigo) celda["data-codigo"] = ev.codigo;
  const repetida = ev.resultado === "respuesta repetida";
  if (repetida) celda["data-repetida"] = "si";
  return el("div", { class: "item" },
    linea("principal", `${ev.metodo} ${ev.ruta} → ${ev.codigo || "sin respuesta"}`),
    repetida ? linea("", marca("⟲ respuesta repetida")) : (ev.resultado ? linea("", ev.resultado) : ""),
    linea("detalle", ms(ev.ms)));
}

// Newest trace first, and only the newest TOPE_TRAZAS on the page; one of them open: the one the
// reader chose, else the newest.
function ordenar() {
  const main = $("#trazas");
  const arts = [...main.querySelectorAll("article.traza")];
  arts.sort((a, b) => Number(b.dataset.inicio) - Number(a.dataset.inicio));
  arts.forEach((a, i) => {
    if (i >= TOPE_TRAZAS) {
      a.remove();
      trazas.delete(a.dataset.traza);
    } else if (main.children[i] !== a) {
      main.insertBefore(a, main.children[i] || null);
    }
  });
  if (elegida !== null && !trazas.has(elegida)) elegida = null;
  for (const a of main.querySelectorAll("article.traza")) {
    const abierta = elegida === null ? a === main.querySelector("article.traza") : a.dataset.traza === elegida;
    if (abierta) a.dataset.abierta = "si";
    else delete a.dataset.abierta;
    a.querySelector("header").setAttribute("aria-expanded", String(abierta));
  }
}

// The gateway's ledger, counted from its events: writes the revisor did, successes clients saw.
function resumir() {
  let escrituras = 0, exitos = 0;
  for (const t of trazas.values()) {
    for (const ev of t.eventos.values()) {
      if (ev.programa !== "pasarela") continue;
      if (ev.escritura) escrituras++;
      if (ev.exito) exitos++;
    }
  }
  const r = $("#resumen");
  r.dataset.escrituras = escrituras;
  r.dataset.exitos = exitos;
  r.textContent = `el revisor hizo ${escrituras} ${escrituras === 1 ? "escritura" : "escrituras"} · ` +
    `los clientes vieron ${exitos} ${exitos === 1 ? "éxito" : "éxitos"}`;
}

function limpiar() {
  trazas.clear();
  sucias.clear();
  elegida = null;
  for (const a of document.querySelectorAll("article.traza")) a.remove();
  resumir();
}

function conectar() {
  const estado = $("#conexion");
  const flujo = new EventSource("/flujo");
  flujo.onopen = () => {
    estado.dataset.estado = "en-vivo";
    estado.textContent = "● en vivo";
  };
  flujo.onerror = () => {
    estado.dataset.estado = "cortada";
    estado.textContent = "○ sin conexión con el panel (reintentando)";
    // A refused stream (the panel at its cap of pages: 503) is not retried by EventSource itself.
    if (flujo.readyState === EventSource.CLOSED) setTimeout(conectar, 5000);
  };
  flujo.addEventListener("inicio", limpiar);
  flujo.addEventListener("borrar", limpiar);
  flujo.addEventListener("evento", (m) => recibir(JSON.parse(m.data)));
  flujo.addEventListener("simular", (m) => {
    const o = $("#simulando");
    o.removeAttribute("data-error");
    o.textContent = JSON.parse(m.data);
  });
}

function controles() {
  if (!PROFESOR) {
    // A reader's page: the control shows what is in force and changes nothing.
    for (const c of document.querySelectorAll("#simular input, #simular button")) c.disabled = true;
    $("#simular").dataset.acceso = "lectura";
  }
  $("#simular").addEventListener("submit", async (e) => {
    e.preventDefault();
    const o = $("#simulando");
    if (!PROFESOR) {
      o.setAttribute("data-error", "");
      o.textContent = "solo lectura: el profesor abre la página con su enlace de una vez para cambiar la falla";
      return;
    }
    try {
      const r = await enviar("/simular", new URLSearchParams(new FormData(e.target)));
      const texto = (await r.text()).trim();
      if (r.ok) o.removeAttribute("data-error");
      else o.setAttribute("data-error", "");
      o.textContent = texto;
    } catch (err) {
      o.setAttribute("data-error", "");
      o.textContent = "el panel no responde";
    }
  });
  $("#borrar").addEventListener("click", () => {
    if (PROFESOR) enviar("/borrar");
  });
}

controles();
conectar();
