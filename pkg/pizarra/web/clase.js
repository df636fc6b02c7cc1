// The class board of classroom mode («laboratorio clase»): GET /clase/estado every 2 s, drawn with
// textContent only, so a student's name is always shown as text, whatever it contains.
//
// It shows the class lab's own board: the roster's rows in its order, «pendiente» for a student
// never graded, a student's history on a click on the name, and, for the instructor, buttons that
// remove a row or clear the board. Only the rows whose student changed are built again, so a read
// of an unchanged class of 500 costs its JSON and a comparison per row.
//
// On a projector the whole class must be in sight: the page lays the rows out in one block, or in
// two, three or four side by side (students in order down each block), with the checks' names as
// headers, or abbreviated with a legend when whole names do not fit; the largest type that fits the window wins. Past what fits at 16 px (the least that reads from the back of
// a room) the page scrolls and says so: no student is ever left out.
"use strict";

const CADA = 2000; // ms between two reads of the class
const ESPERA = 5000; // ms a read may take before the page says the lab does not answer
const LETRA_MINIMA = 16; // px of the rows' type: the least that reads from the back of a room
const LETRA_COMODA = 24; // from here on, whole names and fewer blocks matter more than larger type
const LETRA_MAXIMA = 32;
const BLOQUES = 4;
const CORTAS = new Set(["a", "con", "de", "del", "el", "en", "la", "por", "y"]);

const $ = (id) => document.getElementById(id);
let clase = null; // the last class read
let filas = []; // its rows, built once per read and placed by colocar
let eleccion = null; // the layout that fitted: {clave, t, bloques, abreviado, desborda}
let ultimoBien = null; // when the lab last answered with the class
const quien = "el laboratorio"; // who the page reads from, as its lines say it
let leidas = 0; // reads started: a read older than the last one drawn is not drawn
let dibujada = 0;
// Each student's row and what it shows (firma), kept across reads; and the columns by id, with
// the instructor's flag, which the rows are built for.
const filasDe = new Map();
let columnasDe = new Map();
let hechasPara = "";

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

// MARCAS: each state of a check, as a cell and the history draw it.
const MARCAS = {
  paso: { marca: "✔", tipo: "bien", nota: "pasó" },
  fallo: { marca: "✘", tipo: "mal", nota: "falló" },
  // Neither ✔ nor ✘: the client never met what the check needs (docs/comprobar.md).
  "no-juzgada": { marca: "○", tipo: "sinjuicio", nota: "no se juzgó" },
};
const AUTODECLARADA = "lo informa la máquina del alumno";

// firma is what a student's row shows: the same firma, the same row.
function firma(a, columnas) {
  if (a.pendiente) return "pendiente";
  const cs = a.comprobaciones || {};
  return (a.ultima || "") + "|" + columnas.map((c) => cs[c.id] || "").join(",");
}

// filaClase is a student's row: the name a button that opens its history,
// «pendiente» across the checks until the lab grades it, and the instructor's «quitar».
function filaClase(a, columnas, instructor) {
  const tr = document.createElement("tr");
  const nombre = document.createElement("td");
  nombre.className = "nombre";
  nombre.title = a.nombre;
  const boton = document.createElement("button");
  boton.type = "button";
  boton.dataset.accion = "historial";
  const texto = document.createElement("span");
  texto.textContent = a.nombre;
  boton.appendChild(texto);
  nombre.appendChild(boton);
  tr.appendChild(nombre);
  if (a.pendiente) {
    // Not a result: no ✔, ✘ or ○ until the lab has graded the student's client.
    const td = document.createElement("td");
    td.className = "pendiente";
    td.colSpan = Math.max(1, columnas.length);
    td.textContent = "pendiente";
    td.title = "el laboratorio todavía no calificó su cliente";
    tr.appendChild(td);
  } else {
    const cs = a.comprobaciones || {};
    for (const col of columnas) {
      const m = MARCAS[cs[col.id]] || { marca: "—", tipo: "falta", nota: "su última calificación no la trae" };
      const td = document.createElement("td");
      td.dataset.id = col.id;
      td.tabIndex = 0;
      td.className = m.tipo + (col.autodeclarada ? " autodeclarada" : "");
      td.append(m.marca);
      const s = document.createElement("small");
      s.textContent = col.id + ": " + m.nota + (col.autodeclarada ? " († " + AUTODECLARADA + ")" : "");
      td.appendChild(s);
      tr.appendChild(td);
    }
  }
  const ultima = document.createElement("td");
  ultima.className = "ultima";
  ultima.textContent = horaCorta(a.ultima);
  ultima.title = ultima.dataset.hora = hora(a.ultima);
  tr.appendChild(ultima);
  if (instructor) {
    const td = document.createElement("td");
    td.className = "accion";
    const quitar = document.createElement("button");
    quitar.type = "button";
    quitar.dataset.accion = "quitar";
    quitar.textContent = "quitar";
    td.appendChild(quitar);
    tr.appendChild(td);
  }
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
    const col = columnasDe.get(id);
    if (col && col.premisa) x.title = col.premisa;
    if (col && col.autodeclarada) {
      x.classList.add("autodeclarada");
      x.append("†");
    }
  }
  th("última", "ultima");
  if (clase.instructor) th("", "accion");
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
function claveDeLaClase() {
  return [innerWidth, innerHeight, clase.comprobaciones.join(), clase.alumnos.map((a) => a.nombre).join("\n"), hechasPara].join("|");
}

function colocar() {
  const clave = claveDeLaClase();
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
  // A row is as tall at the least type in any layout (its cells never wrap): when the rows of the
  // most compact layout are taller than the window by themselves, nothing fits, and the search
  // (a dozen layouts of every row: seconds with hundreds of students) is skipped.
  montar({ t: LETRA_MINIMA, bloques: maximo, abreviado: true });
  const primera = $("bloques").querySelector("tbody tr");
  const nadaCabe = primera !== null && primera.getBoundingClientRect().height * Math.ceil(filas.length / maximo) > innerHeight;
  let mejor = null;
  for (let b = 1; b <= maximo && !nadaCabe; b++) {
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
    if (!nadaCabe || b !== maximo) montar(eleccion); // else it is the layout measured above
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
  const p = clase.alumnos.filter((a) => a.pendiente).length;
  if (p > 0) texto += ", " + p + (p === 1 ? " pendiente" : " pendientes");
  if (eleccion && eleccion.desborda) texto += " (no caben todos: desplaza para ver el resto)";
  decirEstado(texto + "; se actualiza sola");
  document.body.classList.toggle("desborda", Boolean(eleccion && eleccion.desborda));
}

function dibujar(e) {
  // A row built again loses the focus: the cell that had it gets it back.
  const foco = document.activeElement && document.activeElement.closest ? document.activeElement.closest("td[data-id]") : null;
  const donde = foco && { alumno: foco.parentElement.firstChild.textContent, id: foco.dataset.id };
  document.body.classList.remove("atrasada");
  dibujarClase(e);
  const otra = donde && filas.find((tr) => tr.firstChild.textContent === donde.alumno);
  const celda = otra && [...otra.children].find((td) => td.dataset.id === donde.id);
  if (celda) {
    if (celda !== document.activeElement) celda.focus({ preventScroll: true });
  } else detallar($("bloques").querySelector("td:hover"));
}

// dibujarClase draws the class lab's board, in the roster's order, building only the rows whose
// student changed: with the same students, columns and window, each is swapped in its place and
// the layout is searched again only when the swap no longer fits.
function dibujarClase(e) {
  e.comprobaciones = e.columnas.map((c) => c.id);
  const para = JSON.stringify(e.columnas) + (e.instructor ? "|profesor" : "");
  if (para !== hechasPara) {
    filasDe.clear(); // other columns, or the instructor's buttons: every row again
    hechasPara = para;
    columnasDe = new Map(e.columnas.map((c) => [c.id, c]));
    $("daga").hidden = !e.columnas.some((c) => c.autodeclarada);
    $("limpiar").hidden = !e.instructor;
  }
  const cambiadas = [];
  const siguen = new Set();
  filas = e.alumnos.map((a) => {
    siguen.add(a.nombre);
    const f = firma(a, e.columnas);
    const antes = filasDe.get(a.nombre);
    if (antes && antes.firma === f) return antes.tr;
    const tr = filaClase(a, e.columnas, e.instructor);
    if (antes) cambiadas.push([antes.tr, tr]);
    filasDe.set(a.nombre, { firma: f, tr });
    return tr;
  });
  for (const n of filasDe.keys()) if (!siguen.has(n)) filasDe.delete(n);
  clase = e;
  if (!eleccion || eleccion.clave !== claveDeLaClase()) {
    decir(); // before colocar: the status line is part of what must fit
    colocar();
    decir();
    return;
  }
  for (const [vieja, nueva] of cambiadas) vieja.replaceWith(nueva);
  decir();
  const ancho = () => document.documentElement.scrollWidth <= innerWidth;
  if (cambiadas.length > 0 && !(eleccion.desborda ? ancho() : cabe())) {
    eleccion = null; // a wider row: the layout is searched again
    colocar();
    decir();
  }
}

// atrasada: the lab did not give the class (motivo says how); what the page shows is the last
// class it gave, greyed, with its time.
function atrasada(motivo) {
  document.body.classList.add("atrasada");
  const de = ultimoBien ? "; lo de abajo es de las " + hora(ultimoBien) : "";
  decirEstado(motivo + de + "; reintento cada " + CADA / 1000 + " s");
}

function esLaClase(e) {
  return e && Array.isArray(e.alumnos) && e.modo === "clase" && Array.isArray(e.columnas);
}

async function leer() {
  const esta = ++leidas;
  let r;
  try {
    r = await fetch("/clase/estado", { cache: "no-store", signal: AbortSignal.timeout(ESPERA) });
  } catch (err) {
    atrasada(err && err.name === "TimeoutError" ? quien + " no respondió en " + ESPERA / 1000 + " s" : "sin conexión con " + quien);
    return;
  }
  if (!r.ok) {
    atrasada(quien + " respondió " + r.status + (r.statusText ? " " + r.statusText : ""));
    r.body?.cancel();
    return;
  }
  let cuerpo;
  try {
    cuerpo = await r.text();
  } catch (err) {
    atrasada("sin conexión con " + quien);
    return;
  }
  if (esta < dibujada) return; // a later read was drawn meanwhile
  const t0 = performance.now();
  let e;
  try {
    e = JSON.parse(cuerpo);
  } catch (err) {
    atrasada(quien + " respondió algo que no es la clase");
    return;
  }
  if (!esLaClase(e)) {
    atrasada(quien + " respondió algo que no es la clase");
    return;
  }
  ultimoBien = new Date();
  dibujada = esta;
  dibujar(e);
  // Only when a test asks for it (window.medirDibujo, an array): the main thread's time for this
  // read, from parsing its JSON to the layout of what changed (the paint comes after).
  if (Array.isArray(window.medirDibujo)) {
    void document.documentElement.offsetHeight;
    window.medirDibujo.push(performance.now() - t0);
  }
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
    if (!barra.hidden) barra.hidden = true; // unchanged, not set again: nothing to restyle or repaint
    return;
  }
  const nombre = td.parentElement.firstChild.textContent;
  const nota = td.querySelector("small").textContent;
  barra.textContent = nombre + " · " + td.firstChild.nodeValue + " " + nota +
    " · calificado a las " + td.parentElement.querySelector("td.ultima").dataset.hora;
  barra.hidden = false;
}

// rutaDe is a student's path on the class lab; null for a name a URL cannot carry as a segment
// (a browser takes «.» and «..» as the folder itself and the one above, even escaped).
function rutaDe(nombre) {
  if (nombre === "." || nombre === "..") return null;
  return "/clase/alumnos/" + encodeURIComponent(nombre);
}

// avisar says, at the top, how the instructor's last action went.
function avisar(texto) {
  const aviso = $("aviso");
  aviso.textContent = texto;
  aviso.hidden = texto === "";
}

// borrar sends one of the instructor's DELETEs, with the session cookie, from this page (the lab
// refuses it from another site); the board is read again at once.
async function borrar(ruta, hecho) {
  if (!ruta) {
    avisar("ese nombre no cabe en una dirección: quítalo con «laboratorio clase»");
    return false;
  }
  let r;
  try {
    r = await fetch(ruta, { method: "DELETE", credentials: "same-origin", cache: "no-store", signal: AbortSignal.timeout(ESPERA) });
  } catch (err) {
    avisar("sin conexión con " + quien + ": no se borró nada");
    return false;
  }
  if (!r.ok) {
    let linea = "";
    try {
      linea = (await r.text()).trim().split("\n")[0];
    } catch (err) {}
    avisar(linea || quien + " respondió " + r.status + ": no se borró nada");
    return false;
  }
  avisar(hecho);
  leer();
  return true;
}

// confirmar asks before an action that cannot be undone.
let alConfirmar = null;
function confirmar(pregunta, si, accion) {
  $("confirmar-texto").textContent = pregunta;
  $("confirmar-si").textContent = si;
  alConfirmar = accion;
  $("confirmar").showModal();
}
$("confirmar-si").addEventListener("click", () => {
  const accion = alConfirmar;
  alConfirmar = null;
  $("confirmar").close();
  if (accion) accion();
});
$("confirmar-no").addEventListener("click", () => $("confirmar").close());
$("confirmar").addEventListener("close", () => {
  alConfirmar = null;
});

function fechaYHora(t) {
  if (!t) return "";
  const d = new Date(t);
  return d.toLocaleDateString("es", { day: "numeric", month: "short" }) + ", " + hora(t);
}

// abrirHistorial shows a student's gradings, the newest first: when, each check, and (for the
// instructor) the report the student was shown.
async function abrirHistorial(nombre) {
  const d = $("historial");
  d.dataset.alumno = nombre;
  $("historial-titulo").textContent = nombre;
  $("historial-lista").replaceChildren();
  $("historial-estado").textContent = "cargando…";
  $("borrar-historial").hidden = !(clase && clase.instructor);
  if (!d.open) d.showModal();
  const ruta = rutaDe(nombre);
  let r, h;
  try {
    if (!ruta) throw new TypeError("sin ruta");
    r = await fetch(ruta + "/calificaciones", { cache: "no-store", signal: AbortSignal.timeout(ESPERA) });
    h = r.ok ? await r.json() : null;
    if (!r.ok) {
      const linea = (await r.text()).trim().split("\n")[0];
      if (d.dataset.alumno === nombre) $("historial-estado").textContent = linea || quien + " respondió " + r.status;
      return;
    }
  } catch (err) {
    if (d.dataset.alumno === nombre) $("historial-estado").textContent = ruta ? "sin conexión con " + quien : "ese nombre no cabe en una dirección";
    return;
  }
  if (d.dataset.alumno !== nombre || !h || !Array.isArray(h.calificaciones)) return; // another was opened meanwhile
  const n = h.calificaciones.length;
  $("historial-estado").textContent = n === 0 ? "todavía no tiene calificaciones" :
    n + (n === 1 ? " calificación" : " calificaciones, la más reciente primero");
  const autodeclaradas = new Set(clase ? clase.columnas.filter((c) => c.autodeclarada).map((c) => c.id) : []);
  const items = h.calificaciones.map((c, i) => {
    const li = document.createElement("li");
    const cuando = document.createElement("p");
    cuando.className = "cuando";
    cuando.textContent = fechaYHora(c.fin);
    const marcas = document.createElement("p");
    marcas.className = "marcas";
    for (const v of c.comprobaciones || []) {
      const m = MARCAS[v.estado];
      if (!m) continue;
      const s = document.createElement("span");
      s.className = m.tipo;
      s.dataset.id = v.id;
      s.textContent = m.marca + " " + v.id + (v.autodeclarada || autodeclaradas.has(v.id) ? "†" : "");
      s.title = v.id + ": " + m.nota;
      marcas.append(s, " ");
    }
    li.append(cuando, marcas);
    // The report (the student's command line, what the client printed) is the instructor's only:
    // the lab sends it to nobody else.
    if (c.informe) {
      const informe = document.createElement("details");
      informe.open = i === 0;
      const resumen = document.createElement("summary");
      resumen.textContent = "informe";
      const pre = document.createElement("pre");
      pre.textContent = c.informe;
      informe.append(resumen, pre);
      li.append(informe);
    }
    return li;
  });
  $("historial-lista").replaceChildren(...items);
}

$("cerrar-historial").addEventListener("click", () => $("historial").close());
$("borrar-historial").addEventListener("click", () => {
  const nombre = $("historial").dataset.alumno;
  confirmar("¿Borrar las calificaciones de «" + nombre + "»? Su fila vuelve a «pendiente».", "sí, borrarlas", async () => {
    if (await borrar(rutaDe(nombre) && rutaDe(nombre) + "/calificaciones", "se borraron las calificaciones de «" + nombre + "»")) {
      abrirHistorial(nombre);
    }
  });
});
$("limpiar").addEventListener("click", () => {
  confirmar("¿Limpiar la pizarra? Se borran las calificaciones de todos; la lista de la clase se queda.", "sí, limpiarla",
    () => borrar("/clase/calificaciones", "pizarra limpia"));
});

const bloques = $("bloques");
bloques.addEventListener("mouseover", (ev) => detallar(ev.target.closest("td")));
bloques.addEventListener("mouseleave", () => detallar(document.activeElement.closest && document.activeElement.closest("td")));
bloques.addEventListener("focusin", (ev) => detallar(ev.target.closest("td")));
bloques.addEventListener("focusout", () => detallar(null));
bloques.addEventListener("click", (ev) => {
  const boton = ev.target.closest("button[data-accion]");
  if (!boton) return;
  const nombre = boton.closest("tr").firstChild.textContent;
  if (boton.dataset.accion === "historial") abrirHistorial(nombre);
  else if (boton.dataset.accion === "quitar") {
    confirmar("¿Quitar a «" + nombre + "» de la clase? Se van su fila, su credencial y sus calificaciones.", "sí, quitarlo",
      () => borrar(rutaDe(nombre), "se quitó a «" + nombre + "»"));
  }
});
addEventListener("resize", () => {
  if (clase) {
    colocar();
    decir();
  }
});
actualizar();
