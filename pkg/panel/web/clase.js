// The class page: GET /clase/estado every 2 s, drawn with textContent only, so a student's name is
// always shown as text, whatever it contains.
//
// On a projector the whole class must be in sight: the page lays the rows out in one block, or in
// two, three or four side by side (students in order down each block), with the checks' names as
// headers, or abbreviated with a legend when whole names do not fit; the largest type that fits the window wins. Past what fits at 16 px (the least that reads from the back of
// a room) the page scrolls and says so: no student is ever left out.
"use strict";

const CADA = 2000; // ms between two reads of the class
const ESPERA = 5000; // ms a read may take before the page says the panel does not answer
const LETRA_MINIMA = 16; // px of the rows' type: the least that reads from the back of a room
const LETRA_COMODA = 24; // from here on, whole names and fewer blocks matter more than larger type
const LETRA_MAXIMA = 32;
const BLOQUES = 4;
const CORTAS = new Set(["a", "con", "de", "del", "el", "en", "la", "por", "y"]);

const $ = (id) => document.getElementById(id);
let clase = null; // the last class read
let filas = []; // its rows, built once per read and placed by colocar
let eleccion = null; // the layout that fitted: {clave, t, bloques, abreviado, desborda}
let ultimoBien = null; // when the panel last answered with the class

function hora(t) {
  if (!t) return "";
  return new Date(t).toLocaleTimeString("es", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// horaCorta is hh:mm: the column a room reads; the seconds are in the cell's details.
function horaCorta(t) {
  return hora(t).slice(0, 5);
}

// abreviaturas: each check's initials, without the short words ("respeta-retry-after" → RRA,
// "llave-por-intencion" → LI); a one-word id keeps its first three letters; a clash gets a digit.
function abreviaturas(ids) {
  const usadas = new Set();
  const res = {};
  for (const id of ids) {
    const partes = id.split("-").filter(Boolean);
    const largas = partes.filter((p) => !CORTAS.has(p));
    let a = (largas.length >= 2 ? largas : partes).map((p) => p[0]).join("").toUpperCase();
    if (a.length < 2) a = id.slice(0, 3).toUpperCase();
    let b = a;
    for (let i = 2; usadas.has(b); i++) b = a + i;
    usadas.add(b);
    res[id] = b;
  }
  return res;
}

function fila(a, ids) {
  const tr = document.createElement("tr");
  const nombre = document.createElement("td");
  nombre.className = "nombre";
  nombre.title = a.nombre; // whole, where the cell cuts a long name
  const texto = document.createElement("span");
  texto.textContent = a.nombre;
  nombre.appendChild(texto);
  tr.appendChild(nombre);
  for (const id of ids) {
    const c = a.comprobaciones[id];
    const td = document.createElement("td");
    td.dataset.id = id;
    td.tabIndex = 0;
    let marca = "—", tipo = "falta", nota = "no llegó su resultado";
    if (c) {
      marca = c.paso ? "✔" : "✘";
      tipo = c.paso ? "bien" : "mal";
      nota = c.ultima_vez_bien ? "pasó por última vez a las " + hora(c.ultima_vez_bien) : "nunca pasó";
      if (c.estado === "no-juzgada") {
        // Neither ✔ nor ✘: the client never met what the check needs (docs/comprobar.md).
        marca = "○";
        tipo = "sinjuicio";
        nota = "no se juzgó; " + nota;
      }
    }
    td.className = tipo;
    td.append(marca);
    const s = document.createElement("small");
    s.textContent = id + ": " + nota;
    td.appendChild(s);
    tr.appendChild(td);
  }
  const ultima = document.createElement("td");
  ultima.className = "ultima";
  ultima.textContent = horaCorta(a.ultima);
  ultima.title = ultima.dataset.hora = hora(a.ultima);
  tr.appendChild(ultima);
  return tr;
}

function cabecera(ids, cortas, abreviado) {
  const tr = document.createElement("tr");
  const th = (texto, tipo) => {
    const x = document.createElement("th");
    x.scope = "col";
    if (tipo) x.className = tipo;
    x.textContent = texto;
    tr.appendChild(x);
    return x;
  };
  th("alumno", "nombre");
  for (const id of ids) {
    const x = th(abreviado ? "" : id);
    x.dataset.id = id;
    if (abreviado) {
      const ab = document.createElement("abbr");
      ab.title = id;
      ab.textContent = cortas[id];
      x.appendChild(ab);
    }
  }
  th("última", "ultima");
  const thead = document.createElement("thead");
  thead.appendChild(tr);
  return thead;
}

// montar lays the rows out as c says: c.t px, c.bloques blocks, whole or abbreviated names.
function montar(c) {
  const ids = clase.comprobaciones;
  const cortas = abreviaturas(ids);
  const leyenda = $("leyenda");
  leyenda.hidden = !c.abreviado || ids.length === 0;
  leyenda.replaceChildren();
  if (c.abreviado) {
    for (const id of ids) {
      const s = document.createElement("span");
      const ab = document.createElement("abbr");
      ab.textContent = cortas[id];
      s.append(ab, " " + id);
      leyenda.append(s, " "); // the space lets the legend wrap between its entries
    }
  }
  const bloques = $("bloques");
  bloques.style.setProperty("--t", c.t + "px");
  const por = Math.max(1, Math.ceil(filas.length / c.bloques));
  const tablas = [];
  for (let i = 0; i === 0 || i * por < filas.length; i++) {
    const tabla = document.createElement("table");
    tabla.appendChild(cabecera(ids, cortas, c.abreviado));
    const cuerpo = document.createElement("tbody");
    cuerpo.append(...filas.slice(i * por, (i + 1) * por));
    tabla.appendChild(cuerpo);
    tablas.push(tabla);
  }
  bloques.replaceChildren(...tablas);
}

function cabe() {
  const d = document.documentElement;
  return d.scrollWidth <= innerWidth && d.scrollHeight <= innerHeight;
}

// colocar finds the most legible layout that fits, once per class and window (a new read of the
// same students in the same window keeps it): for each number of blocks, whole names then
// abbreviated, the largest type that fits (a bisection: what fits at t fits below t). The larger
// type wins up to LETRA_COMODA; from there on, whole names, then fewer blocks, then larger type.
function colocar() {
  const clave = [innerWidth, innerHeight, clase.comprobaciones.join(), clase.alumnos.map((a) => a.nombre).join("\n")].join("|");
  if (eleccion && eleccion.clave === clave) {
    montar(eleccion);
    if (eleccion.desborda || cabe()) return;
  }
  const maximo = Math.max(1, Math.min(BLOQUES, filas.length));
  const cabeCon = (t, bloques, abreviado) => {
    montar({ t, bloques, abreviado });
    return cabe();
  };
  const valor = (c) => [Math.min(c.t, LETRA_COMODA), c.abreviado ? 0 : 1, -c.bloques, c.t];
  const mejorQue = (a, b) => {
    const [x, y] = [valor(a), valor(b)];
    const i = x.findIndex((v, j) => v !== y[j]);
    return i >= 0 && x[i] > y[i];
  };
  let mejor = null;
  for (let b = 1; b <= maximo; b++) {
    for (const abreviado of [false, true]) {
      if (!cabeCon(LETRA_MINIMA, b, abreviado)) continue;
      let [menor, mayor] = [LETRA_MINIMA, LETRA_MAXIMA];
      while (menor < mayor) {
        const t = Math.ceil((menor + mayor) / 2);
        if (cabeCon(t, b, abreviado)) menor = t;
        else mayor = t - 1;
      }
      const c = { clave, t: menor, bloques: b, abreviado, desborda: false };
      if (!mejor || mejorQue(c, mejor)) mejor = c;
    }
  }
  if (mejor) {
    eleccion = mejor;
    montar(eleccion);
    return;
  }
  // Not even at the least legible type: as many blocks as fit across, and the page scrolls.
  for (let b = maximo; b >= 1; b--) {
    eleccion = { clave, t: LETRA_MINIMA, bloques: b, abreviado: true, desborda: true };
    montar(eleccion);
    if (document.documentElement.scrollWidth <= innerWidth) return;
  }
}

// decirEstado writes the status line only when it changes: it is a live region, and a screen
// reader would otherwise say it again every 2 s.
function decirEstado(texto) {
  const estado = $("estado");
  if (estado.textContent !== texto) estado.textContent = texto;
}

function decir() {
  const n = clase.alumnos.length;
  let texto = n + (n === 1 ? " alumno" : " alumnos");
  if (eleccion && eleccion.desborda) texto += " (no caben todos: desplaza para ver el resto)";
  decirEstado(texto + "; se actualiza sola");
  document.body.classList.toggle("desborda", Boolean(eleccion && eleccion.desborda));
}

const ordenAlfabetico = new Intl.Collator("es", { sensitivity: "base", numeric: true });

function dibujar(e) {
  // The rows are new on every read: the cell that had the focus gets it back.
  const foco = document.activeElement && document.activeElement.closest ? document.activeElement.closest("td[data-id]") : null;
  const donde = foco && { alumno: foco.parentElement.firstChild.textContent, id: foco.dataset.id };
  // In the order a Spanish class list has («Óscar» before «Zoe»); the panel sends them by bytes.
  e.alumnos.sort((a, b) => ordenAlfabetico.compare(a.nombre, b.nombre));
  clase = e;
  filas = e.alumnos.map((a) => fila(a, e.comprobaciones));
  document.body.classList.remove("atrasada");
  decir(); // before colocar: the status line is part of what must fit
  colocar();
  decir();
  const otra = donde && filas.find((tr) => tr.firstChild.textContent === donde.alumno);
  const celda = otra && [...otra.children].find((td) => td.dataset.id === donde.id);
  if (celda) celda.focus({ preventScroll: true });
  else detallar($("bloques").querySelector("td:hover"));
}

// atrasada: the panel did not give the class (motivo says how); what the page shows is the last
// class it gave, greyed, with its time.
function atrasada(motivo) {
  document.body.classList.add("atrasada");
  const de = ultimoBien ? "; lo de abajo es de las " + hora(ultimoBien) : "";
  decirEstado(motivo + de + "; reintento cada " + CADA / 1000 + " s");
}

async function leer() {
  let r;
  try {
    r = await fetch("/clase/estado", { cache: "no-store", signal: AbortSignal.timeout(ESPERA) });
  } catch (err) {
    atrasada(err && err.name === "TimeoutError" ? "el panel no respondió en " + ESPERA / 1000 + " s" : "sin conexión con el panel");
    return;
  }
  if (!r.ok) {
    atrasada("el panel respondió " + r.status + (r.statusText ? " " + r.statusText : ""));
    r.body?.cancel();
    return;
  }
  let e;
  try {
    e = await r.json();
  } catch (err) {
    atrasada(err instanceof SyntaxError ? "el panel respondió algo que no es la clase" : "sin conexión con el panel");
    return;
  }
  if (!e || !Array.isArray(e.alumnos) || !Array.isArray(e.comprobaciones)) {
    atrasada("el panel respondió algo que no es la clase");
    return;
  }
  ultimoBien = new Date();
  dibujar(e);
}

async function actualizar() {
  await leer();
  setTimeout(actualizar, CADA);
}

// The bar at the top says a cell's details while the pointer is on it or it has the focus (Tab):
// who, which check, its result and when it last passed.
function detallar(td) {
  const barra = $("detalle");
  if (!td || !td.dataset.id) {
    barra.hidden = true;
    return;
  }
  const nombre = td.parentElement.firstChild.textContent;
  const nota = td.querySelector("small").textContent;
  barra.textContent = nombre + " · " + td.firstChild.nodeValue + " " + nota +
    " · calificado a las " + td.parentElement.lastChild.dataset.hora;
  barra.hidden = false;
}

const bloques = $("bloques");
bloques.addEventListener("mouseover", (ev) => detallar(ev.target.closest("td")));
bloques.addEventListener("mouseleave", () => detallar(document.activeElement.closest && document.activeElement.closest("td")));
bloques.addEventListener("focusin", (ev) => detallar(ev.target.closest("td")));
bloques.addEventListener("focusout", () => detallar(null));
addEventListener("resize", () => {
  if (clase) {
    colocar();
    decir();
  }
});
actualizar();
