// The words the REST mock writes an idea's `prompt` in: one frame per language, so the prompt is in the
// brand's language (only the brand's own words — name, offerings, quotes, rules — and holiday names are
// embedded as they are). Languages without a frame get the English frame with an explicit instruction to
// write in the brand's language code.
import type { Archetype, IdeaFormat } from "../../generated/rest/types.js";
import type { Season } from "./calendar.js";

export type TaskKey = "moment" | "spotlight" | "story" | "tips" | "seasonal" | "questions" | "behind" | "checklist" | "myth" | "gift";
type Part = "early" | "mid" | "late";

interface Frame {
  /** Opening sentence: what to write, for whom. */
  write(format: string, name: string): string;
  formats: Record<IdeaFormat, string>;
  voice: Record<Archetype, string>;
  tone(voice: string): string;
  tasks: Record<TaskKey, (subject: string) => string>;
  moment(when: string): string;
  season(part: Part, season: Season): string;
  /** The brand's own words, each quoted. */
  quote(words: string[]): string;
  always(rules: string): string;
  end: string;
}

const en: Frame = {
  write: (f, n) => `Write ${f} in English for ${n}.`,
  formats: { image: "an image post with a caption", carousel: "a carousel of five slides", video: "the script of a short vertical video", text: "a text-only post" },
  voice: { innocent: "simple, honest and hopeful", everyman: "down to earth", hero: "brave and determined", outlaw: "bold, saying what others will not", explorer: "curious and free", creator: "inventive, proud of the craft", ruler: "confident, setting the standard", magician: "making the hard look easy", lover: "warm and close", caregiver: "kind and protective", jester: "playful and funny", sage: "wise, explaining clearly" },
  tone: (v) => `Tone: ${v}.`,
  tasks: {
    moment: (s) => `Make it about ${s} and why it fits right now.`,
    spotlight: (s) => `Put ${s} in the spotlight.`,
    story: (s) => `Tell the short story of ${s} and what it stands for.`,
    tips: (s) => `Give three practical tips about ${s}.`,
    seasonal: (s) => `Show ${s} as the thing to have at this time of year.`,
    questions: (s) => `Answer the questions people ask most about ${s}.`,
    behind: (s) => `Take the reader behind the scenes at ${s}.`,
    checklist: (s) => `Give a short checklist for choosing ${s}.`,
    myth: (s) => `Put right a common misunderstanding about ${s}.`,
    gift: (s) => `Suggest ${s} as a gift.`,
  },
  moment: (w) => `Tie it to ${w}.`,
  season: (p, s) => `${p} ${s}`,
  quote: (q) => `Use the brand's own words: ${q.map((w) => `"${w}"`).join(", ")}.`,
  always: (r) => `Always: ${r}.`,
  end: "End with a clear invitation to act.",
};

const nb: Frame = {
  write: (f, n) => `Skriv ${f} på norsk for ${n}.`,
  formats: { image: "et bildeinnlegg med bildetekst", carousel: "en karusell med fem bilder", video: "manus til en kort, stående video", text: "et rent tekstinnlegg" },
  voice: { innocent: "enkel, ærlig og håpefull", everyman: "jordnær", hero: "modig og målbevisst", outlaw: "frittalende, sier det andre ikke sier", explorer: "nysgjerrig og fri", creator: "oppfinnsom og stolt av håndverket", ruler: "trygg, setter standarden", magician: "gjør det vanskelige enkelt", lover: "varm og nær", caregiver: "omsorgsfull og beskyttende", jester: "leken og morsom", sage: "klok og forklarende" },
  tone: (v) => `Tone: ${v}.`,
  tasks: {
    moment: (s) => `Handle om ${s} og hvorfor det passer akkurat nå.`,
    spotlight: (s) => `Sett søkelyset på ${s}.`,
    story: (s) => `Fortell den korte historien om ${s} og hva den står for.`,
    tips: (s) => `Gi tre praktiske tips om ${s}.`,
    seasonal: (s) => `Vis ${s} som det man trenger på denne tiden av året.`,
    questions: (s) => `Svar på spørsmålene folk oftest stiller om ${s}.`,
    behind: (s) => `Ta leseren med bak kulissene hos ${s}.`,
    checklist: (s) => `Gi en kort sjekkliste for å velge ${s}.`,
    myth: (s) => `Rett opp en vanlig misforståelse om ${s}.`,
    gift: (s) => `Foreslå ${s} som gave.`,
  },
  moment: (w) => `Knytt det til ${w}.`,
  season: (p, s) => `${{ early: "tidlig", mid: "midt i", late: "sent på" }[p]} ${{ winter: "vinteren", spring: "våren", summer: "sommeren", autumn: "høsten" }[s]}`,
  quote: (q) => `Bruk merkevarens egne ord: ${q.map((w) => `«${w}»`).join(", ")}.`,
  always: (r) => `Alltid: ${r}.`,
  end: "Avslutt med en tydelig oppfordring.",
};

const sv: Frame = {
  write: (f, n) => `Skriv ${f} på svenska för ${n}.`,
  formats: { image: "ett bildinlägg med bildtext", carousel: "en karusell med fem bilder", video: "manus till en kort, stående video", text: "ett rent textinlägg" },
  voice: { innocent: "enkel, ärlig och hoppfull", everyman: "jordnära", hero: "modig och målmedveten", outlaw: "frispråkig, säger det andra inte säger", explorer: "nyfiken och fri", creator: "uppfinningsrik och stolt över hantverket", ruler: "trygg, sätter standarden", magician: "gör det svåra enkelt", lover: "varm och nära", caregiver: "omtänksam och beskyddande", jester: "lekfull och rolig", sage: "klok och förklarande" },
  tone: (v) => `Ton: ${v}.`,
  tasks: {
    moment: (s) => `Handla om ${s} och varför det passar just nu.`,
    spotlight: (s) => `Sätt strålkastarljuset på ${s}.`,
    story: (s) => `Berätta den korta historien om ${s} och vad den står för.`,
    tips: (s) => `Ge tre praktiska tips om ${s}.`,
    seasonal: (s) => `Visa ${s} som det man behöver den här tiden på året.`,
    questions: (s) => `Svara på de frågor folk oftast ställer om ${s}.`,
    behind: (s) => `Ta med läsaren bakom kulisserna hos ${s}.`,
    checklist: (s) => `Ge en kort checklista för att välja ${s}.`,
    myth: (s) => `Rätta till ett vanligt missförstånd om ${s}.`,
    gift: (s) => `Föreslå ${s} som present.`,
  },
  moment: (w) => `Knyt det till ${w}.`,
  season: (p, s) => `${{ early: "tidigt under", mid: "mitt i", late: "sent under" }[p]} ${{ winter: "vintern", spring: "våren", summer: "sommaren", autumn: "hösten" }[s]}`,
  quote: (q) => `Använd varumärkets egna ord: ${q.map((w) => `”${w}”`).join(", ")}.`,
  always: (r) => `Alltid: ${r}.`,
  end: "Avsluta med en tydlig uppmaning.",
};

const da: Frame = {
  write: (f, n) => `Skriv ${f} på dansk for ${n}.`,
  formats: { image: "et billedopslag med billedtekst", carousel: "en karrusel med fem billeder", video: "manus til en kort, lodret video", text: "et rent tekstopslag" },
  voice: { innocent: "enkel, ærlig og håbefuld", everyman: "jordnær", hero: "modig og målrettet", outlaw: "frittalende, siger det andre ikke siger", explorer: "nysgerrig og fri", creator: "opfindsom og stolt af håndværket", ruler: "sikker, sætter standarden", magician: "gør det svære let", lover: "varm og nær", caregiver: "omsorgsfuld og beskyttende", jester: "legende og sjov", sage: "klog og forklarende" },
  tone: (v) => `Tone: ${v}.`,
  tasks: {
    moment: (s) => `Handl om ${s} og hvorfor det passer lige nu.`,
    spotlight: (s) => `Sæt fokus på ${s}.`,
    story: (s) => `Fortæl den korte historie om ${s} og hvad den står for.`,
    tips: (s) => `Giv tre praktiske tips om ${s}.`,
    seasonal: (s) => `Vis ${s} som det, man har brug for på denne tid af året.`,
    questions: (s) => `Svar på de spørgsmål, folk oftest stiller om ${s}.`,
    behind: (s) => `Tag læseren med bag kulisserne hos ${s}.`,
    checklist: (s) => `Giv en kort tjekliste til at vælge ${s}.`,
    myth: (s) => `Ret en almindelig misforståelse om ${s}.`,
    gift: (s) => `Foreslå ${s} som gave.`,
  },
  moment: (w) => `Knyt det til ${w}.`,
  season: (p, s) => `${{ early: "tidligt på", mid: "midt i", late: "sent på" }[p]} ${{ winter: "vinteren", spring: "foråret", summer: "sommeren", autumn: "efteråret" }[s]}`,
  quote: (q) => `Brug brandets egne ord: ${q.map((w) => `»${w}«`).join(", ")}.`,
  always: (r) => `Altid: ${r}.`,
  end: "Slut med en tydelig opfordring.",
};

const de: Frame = {
  write: (f, n) => `Schreibe ${f} auf Deutsch für ${n}.`,
  formats: { image: "einen Bildbeitrag mit Bildunterschrift", carousel: "ein Karussell mit fünf Folien", video: "das Skript für ein kurzes Hochformat-Video", text: "einen reinen Textbeitrag" },
  voice: { innocent: "schlicht, ehrlich und zuversichtlich", everyman: "bodenständig", hero: "mutig und entschlossen", outlaw: "unbequem, sagt, was andere nicht sagen", explorer: "neugierig und frei", creator: "einfallsreich und stolz aufs Handwerk", ruler: "souverän, setzt den Maßstab", magician: "macht Schwieriges leicht", lover: "warm und nah", caregiver: "fürsorglich und schützend", jester: "verspielt und witzig", sage: "klug und erklärend" },
  tone: (v) => `Ton: ${v}.`,
  tasks: {
    moment: (s) => `Es geht um ${s} und warum es gerade jetzt passt.`,
    spotlight: (s) => `Stelle ${s} ins Rampenlicht.`,
    story: (s) => `Erzähle die kurze Geschichte von ${s} und wofür es steht.`,
    tips: (s) => `Gib drei praktische Tipps zu ${s}.`,
    seasonal: (s) => `Zeige ${s} als das Richtige für diese Jahreszeit.`,
    questions: (s) => `Beantworte die häufigsten Fragen zu ${s}.`,
    behind: (s) => `Nimm die Leser mit hinter die Kulissen von ${s}.`,
    checklist: (s) => `Gib eine kurze Checkliste für die Wahl von ${s}.`,
    myth: (s) => `Räume mit einem verbreiteten Irrtum über ${s} auf.`,
    gift: (s) => `Schlage ${s} als Geschenk vor.`,
  },
  moment: (w) => `Verknüpfe es mit ${w}.`,
  season: (p, s) => `${{ early: "dem frühen", mid: "dem mittleren", late: "dem späten" }[p]} ${{ winter: "Winter", spring: "Frühling", summer: "Sommer", autumn: "Herbst" }[s]}`,
  quote: (q) => `Verwende die eigenen Worte der Marke: ${q.map((w) => `„${w}“`).join(", ")}.`,
  always: (r) => `Immer: ${r}.`,
  end: "Schließe mit einer klaren Handlungsaufforderung.",
};

const fr: Frame = {
  write: (f, n) => `Écris ${f} en français pour ${n}.`,
  formats: { image: "une publication avec une image et une légende", carousel: "un carrousel de cinq visuels", video: "le script d'une courte vidéo verticale", text: "une publication uniquement textuelle" },
  voice: { innocent: "simple, honnête et optimiste", everyman: "proche des gens", hero: "courageux et déterminé", outlaw: "audacieux, dit ce que les autres taisent", explorer: "curieux et libre", creator: "inventif, fier du savoir-faire", ruler: "assuré, qui fixe la norme", magician: "qui rend facile ce qui est difficile", lover: "chaleureux et proche", caregiver: "bienveillant et protecteur", jester: "joueur et drôle", sage: "sage et pédagogue" },
  tone: (v) => `Ton : ${v}.`,
  tasks: {
    moment: (s) => `Parle de ${s} et de pourquoi c'est le bon moment.`,
    spotlight: (s) => `Mets ${s} en avant.`,
    story: (s) => `Raconte la courte histoire de ${s} et ce qu'elle défend.`,
    tips: (s) => `Donne trois conseils pratiques sur ${s}.`,
    seasonal: (s) => `Montre ${s} comme l'incontournable de la saison.`,
    questions: (s) => `Réponds aux questions les plus fréquentes sur ${s}.`,
    behind: (s) => `Emmène le lecteur dans les coulisses de ${s}.`,
    checklist: (s) => `Donne une courte liste pour bien choisir ${s}.`,
    myth: (s) => `Corrige une idée reçue sur ${s}.`,
    gift: (s) => `Propose ${s} comme cadeau.`,
  },
  moment: (w) => `Relie-le à ${w}.`,
  season: (p, s) => `${{ early: "au début de", mid: "au cœur de", late: "à la fin de" }[p]} ${{ winter: "l'hiver", spring: "le printemps", summer: "l'été", autumn: "l'automne" }[s]}`,
  quote: (q) => `Utilise les mots de la marque : ${q.map((w) => `« ${w} »`).join(", ")}.`,
  always: (r) => `Toujours : ${r}.`,
  end: "Termine par un appel à l'action clair.",
};

const es: Frame = {
  write: (f, n) => `Escribe ${f} en español para ${n}.`,
  formats: { image: "una publicación con una imagen y un pie de foto", carousel: "un carrusel de cinco diapositivas", video: "el guion de un vídeo vertical corto", text: "una publicación solo de texto" },
  voice: { innocent: "sencillo, honesto y optimista", everyman: "cercano", hero: "valiente y decidido", outlaw: "atrevido, dice lo que otros callan", explorer: "curioso y libre", creator: "inventivo, orgulloso del oficio", ruler: "seguro, marca el estándar", magician: "hace fácil lo difícil", lover: "cálido y cercano", caregiver: "atento y protector", jester: "juguetón y divertido", sage: "sabio y didáctico" },
  tone: (v) => `Tono: ${v}.`,
  tasks: {
    moment: (s) => `Habla de ${s} y de por qué encaja justo ahora.`,
    spotlight: (s) => `Pon el foco en ${s}.`,
    story: (s) => `Cuenta la breve historia de ${s} y lo que defiende.`,
    tips: (s) => `Da tres consejos prácticos sobre ${s}.`,
    seasonal: (s) => `Presenta ${s} como lo imprescindible de esta época del año.`,
    questions: (s) => `Responde a las preguntas más frecuentes sobre ${s}.`,
    behind: (s) => `Lleva al lector entre bastidores en ${s}.`,
    checklist: (s) => `Da una lista breve para elegir ${s}.`,
    myth: (s) => `Corrige un malentendido común sobre ${s}.`,
    gift: (s) => `Sugiere ${s} como regalo.`,
  },
  moment: (w) => `Relaciónalo con ${w}.`,
  season: (p, s) => `${{ early: "el comienzo de", mid: "pleno", late: "el final de" }[p]} ${{ winter: "invierno", spring: "primavera", summer: "verano", autumn: "otoño" }[s]}`,
  quote: (q) => `Usa las palabras de la marca: ${q.map((w) => `«${w}»`).join(", ")}.`,
  always: (r) => `Siempre: ${r}.`,
  end: "Termina con una llamada a la acción clara.",
};

const nl: Frame = {
  write: (f, n) => `Schrijf ${f} in het Nederlands voor ${n}.`,
  formats: { image: "een beeldpost met bijschrift", carousel: "een carrousel van vijf slides", video: "het script van een korte verticale video", text: "een post met alleen tekst" },
  voice: { innocent: "eenvoudig, eerlijk en hoopvol", everyman: "nuchter", hero: "moedig en vastberaden", outlaw: "brutaal, zegt wat anderen niet zeggen", explorer: "nieuwsgierig en vrij", creator: "vindingrijk en trots op het vak", ruler: "zelfverzekerd, zet de standaard", magician: "maakt het moeilijke makkelijk", lover: "warm en dichtbij", caregiver: "zorgzaam en beschermend", jester: "speels en grappig", sage: "wijs en uitleggend" },
  tone: (v) => `Toon: ${v}.`,
  tasks: {
    moment: (s) => `Maak het over ${s} en waarom het nu past.`,
    spotlight: (s) => `Zet ${s} in de schijnwerpers.`,
    story: (s) => `Vertel het korte verhaal van ${s} en waar het voor staat.`,
    tips: (s) => `Geef drie praktische tips over ${s}.`,
    seasonal: (s) => `Laat ${s} zien als hét ding voor deze tijd van het jaar.`,
    questions: (s) => `Beantwoord de vragen die mensen het vaakst stellen over ${s}.`,
    behind: (s) => `Neem de lezer mee achter de schermen bij ${s}.`,
    checklist: (s) => `Geef een korte checklist om ${s} te kiezen.`,
    myth: (s) => `Ontkracht een veelvoorkomend misverstand over ${s}.`,
    gift: (s) => `Stel ${s} voor als cadeau.`,
  },
  moment: (w) => `Koppel het aan ${w}.`,
  season: (p, s) => `${{ early: "het begin van de", mid: "het midden van de", late: "het einde van de" }[p]} ${{ winter: "winter", spring: "lente", summer: "zomer", autumn: "herfst" }[s]}`,
  quote: (q) => `Gebruik de eigen woorden van het merk: ${q.map((w) => `"${w}"`).join(", ")}.`,
  always: (r) => `Altijd: ${r}.`,
  end: "Sluit af met een duidelijke oproep.",
};

const pt: Frame = {
  write: (f, n) => `Escreve ${f} em português para ${n}.`,
  formats: { image: "uma publicação com imagem e legenda", carousel: "um carrossel de cinco slides", video: "o guião de um vídeo vertical curto", text: "uma publicação só de texto" },
  voice: { innocent: "simples, honesto e esperançoso", everyman: "próximo das pessoas", hero: "corajoso e determinado", outlaw: "ousado, diz o que outros calam", explorer: "curioso e livre", creator: "inventivo, orgulhoso do ofício", ruler: "confiante, define o padrão", magician: "torna fácil o que é difícil", lover: "caloroso e próximo", caregiver: "atencioso e protetor", jester: "brincalhão e divertido", sage: "sábio e didático" },
  tone: (v) => `Tom: ${v}.`,
  tasks: {
    moment: (s) => `Fala sobre ${s} e porque encaixa agora.`,
    spotlight: (s) => `Põe ${s} em destaque.`,
    story: (s) => `Conta a breve história de ${s} e o que defende.`,
    tips: (s) => `Dá três dicas práticas sobre ${s}.`,
    seasonal: (s) => `Mostra ${s} como o essencial desta época do ano.`,
    questions: (s) => `Responde às perguntas mais frequentes sobre ${s}.`,
    behind: (s) => `Leva o leitor aos bastidores de ${s}.`,
    checklist: (s) => `Dá uma lista curta para escolher ${s}.`,
    myth: (s) => `Corrige um equívoco comum sobre ${s}.`,
    gift: (s) => `Sugere ${s} como presente.`,
  },
  moment: (w) => `Liga-o a ${w}.`,
  season: (p, s) => `${{ early: "o início do", mid: "o pleno", late: "o fim do" }[p]} ${{ winter: "inverno", spring: "primavera", summer: "verão", autumn: "outono" }[s]}`,
  quote: (q) => `Usa as palavras da marca: ${q.map((w) => `«${w}»`).join(", ")}.`,
  always: (r) => `Sempre: ${r}.`,
  end: "Termina com um apelo à ação claro.",
};

const it: Frame = {
  write: (f, n) => `Scrivi ${f} in italiano per ${n}.`,
  formats: { image: "un post con un'immagine e una didascalia", carousel: "un carosello di cinque slide", video: "il copione di un breve video verticale", text: "un post di solo testo" },
  voice: { innocent: "semplice, onesto e fiducioso", everyman: "alla mano", hero: "coraggioso e determinato", outlaw: "audace, dice ciò che altri tacciono", explorer: "curioso e libero", creator: "inventivo, orgoglioso del mestiere", ruler: "sicuro, detta lo standard", magician: "rende facile ciò che è difficile", lover: "caldo e vicino", caregiver: "premuroso e protettivo", jester: "giocoso e divertente", sage: "saggio e chiaro" },
  tone: (v) => `Tono: ${v}.`,
  tasks: {
    moment: (s) => `Parla di ${s} e del perché è il momento giusto.`,
    spotlight: (s) => `Metti in primo piano ${s}.`,
    story: (s) => `Racconta la breve storia di ${s} e ciò in cui crede.`,
    tips: (s) => `Dai tre consigli pratici su ${s}.`,
    seasonal: (s) => `Presenta ${s} come l'essenziale di questo periodo dell'anno.`,
    questions: (s) => `Rispondi alle domande più frequenti su ${s}.`,
    behind: (s) => `Porta il lettore dietro le quinte di ${s}.`,
    checklist: (s) => `Dai una breve lista per scegliere ${s}.`,
    myth: (s) => `Correggi un equivoco comune su ${s}.`,
    gift: (s) => `Suggerisci ${s} come regalo.`,
  },
  moment: (w) => `Collegalo a ${w}.`,
  season: (p, s) => `${{ early: "l'inizio", mid: "il cuore", late: "la fine" }[p]} ${{ winter: "dell'inverno", spring: "della primavera", summer: "dell'estate", autumn: "dell'autunno" }[s]}`,
  quote: (q) => `Usa le parole del marchio: ${q.map((w) => `«${w}»`).join(", ")}.`,
  always: (r) => `Sempre: ${r}.`,
  end: "Chiudi con un chiaro invito all'azione.",
};

const frames: Record<string, Frame> = { en, nb, no: nb, nn: nb, sv, da, de, fr, es, nl, pt, it };

/** Languages whose prompt is written entirely in that language. */
export const promptLanguages = Object.keys(frames);

export interface PromptParts {
  language: string;
  format: IdeaFormat;
  name: string;
  archetype: Archetype;
  task: TaskKey;
  subject: string;
  /** A holiday name, or a season to localize; null when the idea is evergreen. */
  moment: { holiday: string } | { season: Season; part: Part } | null;
  quotes: string[];
  always: string[];
}

export function writePrompt(p: PromptParts): string {
  const frame = frames[p.language];
  const f = frame ?? en;
  const sentences = [
    f.write(f.formats[p.format], p.name),
    ...(frame ? [] : [`Write it in the language with ISO 639-1 code "${p.language}", not in English.`]),
    f.tasks[p.task](p.subject),
    ...(p.moment ? [f.moment("holiday" in p.moment ? p.moment.holiday : f.season(p.moment.part, p.moment.season))] : []),
    ...(p.quotes.length ? [f.quote(p.quotes)] : []),
    f.tone(f.voice[p.archetype]),
    ...(p.always.length ? [f.always(p.always.join("; "))] : []),
    f.end,
  ];
  return sentences.join(" ");
}
