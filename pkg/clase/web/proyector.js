// The projector's page of a prediction asked in class: GET /clase/prediccion/estado every 2 s,
// drawn with textContent only. The lab sends no name to it; with the instructor's session (the
// one-time link) it sends each student's answers too, which the page keeps folded away, and the
// instructor's buttons (histogram, run and reveal, close) act.
"use strict";

const CADA = 2000; // ms between two reads
const $ = (id) => document.getElementById(id);
let dibujado = ""; // the last state drawn, as JSON: an unchanged one is not drawn again
let ocupado = false; // an instructor's button is waiting for its answer

function el(etiqueta, clase, texto) {
  const e = document.createElement(etiqueta);
  if (clase) e.className = clase;
  if (texto !== undefined) e.textContent = texto;
  return e;
}

function aviso(texto) {
  $("aviso").textContent = texto;
  $("aviso").hidden = !texto;
}

const FASES = {
  ninguna: "no hay ninguna pregunta abierta",
  abierta: "abierta: se puede responder",
  corriendo: "respuestas cerradas: el laboratorio corre el ejercicio…",
  revelada: "revelada: esto es lo que pasó",
};

function barras(h, real) {
  const total = h.barras.reduce((s, b) => s + b.cuantos, 0);
  const max = Math.max(1, ...h.barras.map((b) => b.cuantos));
  const caja = el("div", "barras");
  for (const b of h.barras) {
    const esReal = real !== undefined && !b.otras && b.valor === real.valor;
    const valor = el("span", "valor" + (esReal ? " es-real" : ""), b.valor);
    const fila = el("span", "fila" + (esReal ? " es-real" : ""));
    const barra = el("span", "barra");
    barra.style.width = (100 * b.cuantos) / max * 0.8 + "%";
    fila.append(barra, el("span", "cuantos", b.cuantos + (total ? " (" + Math.round((100 * b.cuantos) / total) + " %)" : "")));
    caja.append(valor, fila);
  }
  return caja;
}

function dibujar(v) {
  const firma = JSON.stringify(v);
  if (firma === dibujado) return;
  dibujado = firma;
  $("estado").textContent = FASES[v.fase] || v.fase;
  document.body.dataset.fase = v.fase;
  const hay = v.fase !== "ninguna" && v.ejercicio;
  $("pregunta").hidden = !hay;
  $("titulo").textContent = hay ? v.ejercicio.id + " — " + v.ejercicio.titulo : "Predice, luego corre";
  $("profesor").hidden = !v.instructor;
  if (v.instructor) {
    $("histograma").disabled = !hay || v.fase === "revelada" || (v.histograma || []).length > 0;
    $("revelar").disabled = !hay || v.fase !== "abierta";
    $("cerrar").disabled = !hay;
  }
  if (!hay) {
    $("preguntas").replaceChildren();
    $("tabla-alumnos").replaceChildren();
    return;
  }
  $("cita").textContent = v.cita;
  $("enunciado").textContent = v.ejercicio.enunciado;
  $("cuenta").textContent = v.respondieron + " de " + v.alumnos + (v.respondieron === 1 ? " respondió" : " respondieron");
  const hist = new Map((v.histograma || []).map((h) => [h.pregunta, h]));
  const items = v.ejercicio.preguntas.map((q) => {
    const li = el("li");
    li.dataset.pregunta = q.id;
    li.append(el("span", "texto", q.texto));
    const real = v.reales ? v.reales[q.id] : undefined;
    if (hist.has(q.id)) li.append(barras(hist.get(q.id), real));
    if (real) {
      const p = el("p", "resultado");
      p.append("pasó: ", el("span", "real", real.valor), " · acertaron " + real.acertaron + " de " + v.respondieron +
        (v.respondieron ? " (" + Math.round((100 * real.acertaron) / v.respondieron) + " %)" : ""));
      li.append(p, el("p", "porque", "por qué: " + real.porque));
    }
    return li;
  });
  $("preguntas").replaceChildren(...items);
  $("preguntas").classList.toggle("lado-a-lado", hist.size > 0);
  if (v.falla) aviso("la corrida no pudo revelar: " + v.falla);
  if (v.instructor) tablaDeAlumnos(v);
  encajar();
}

// The projector's letter: the largest, from LETRA down to LETRA_MINIMA px, with which the
// question, its bars and the reveal (and the instructor's buttons, not the answers unfolded
// below them) fit in the window without scrolling.
const LETRA = 24, LETRA_MINIMA = 16;
function encajar() {
  const fondo = () => {
    let f = 0;
    for (const e of [document.querySelector("header"), $("aviso"), $("pregunta"), document.querySelector("#profesor .acciones")]) {
      if (e && e.getClientRects().length) f = Math.max(f, e.getBoundingClientRect().bottom + scrollY);
    }
    return f + 8; // the body's padding
  };
  let letra = LETRA;
  document.body.style.fontSize = letra + "px";
  while (letra > LETRA_MINIMA && (fondo() > innerHeight || document.documentElement.scrollWidth > innerWidth)) {
    letra--;
    document.body.style.fontSize = letra + "px";
  }
}

// tablaDeAlumnos: each student who answered, by name (text), with each answer and, once revealed,
// the hits. Only the instructor's state has them.
function tablaDeAlumnos(v) {
  const cab = el("tr");
  cab.append(el("th", "", "alumno"), ...v.ejercicio.preguntas.map((q, i) => el("th", "", String(i + 1))));
  if (v.reales) cab.append(el("th", "", "aciertos"));
  const filas = (v.por_alumno || []).map((a) => {
    const tr = el("tr");
    tr.append(el("td", "nombre", a.alumno), ...v.ejercicio.preguntas.map((q) => el("td", "", a.respuestas[q.id] || "")));
    if (v.reales) tr.append(el("td", "", a.aciertos + " de " + v.ejercicio.preguntas.length));
    return tr;
  });
  $("tabla-alumnos").replaceChildren(cab, ...filas);
}

async function leer() {
  try {
    const r = await fetch("/clase/prediccion/estado", { cache: "no-store", headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error((await r.text()).trim() || String(r.status));
    const v = await r.json();
    if (!ocupado) aviso("");
    dibujar(v);
  } catch (e) {
    aviso("el laboratorio de la clase no responde (" + e.message + "); sigo intentándolo");
  } finally {
    setTimeout(leer, CADA);
  }
}

// pedir is one of the instructor's buttons: its answer's line when it fails.
async function pedir(metodo, ruta) {
  ocupado = true;
  aviso("");
  try {
    const r = await fetch(ruta, { method: metodo, cache: "no-store" });
    if (!r.ok) aviso((await r.text()).trim());
    dibujado = "";
  } catch (e) {
    aviso("el laboratorio de la clase no responde: " + e.message);
  } finally {
    ocupado = false;
  }
}

$("donde").textContent = location.origin + "/clase/predecir";
$("histograma").addEventListener("click", () => pedir("POST", "/clase/prediccion/histograma"));
$("revelar").addEventListener("click", () => {
  $("revelar").disabled = true;
  pedir("POST", "/clase/prediccion/revelar");
});
$("cerrar").addEventListener("click", () => pedir("DELETE", "/clase/prediccion"));
addEventListener("resize", encajar);
leer();
