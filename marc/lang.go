package marc

import (
	"strings"
	"sync"
)

// LanguageCode returns the three-letter MARC language code for a BCP 47
// tag ("en-GB" → "eng", "pt-BR" → "por", "de" → "ger"), or "und" when tag is
// empty or its language is not in the table. A three-letter primary subtag
// is taken as ISO 639-2 and mapped from the terminology to the bibliographic
// form where they differ ("deu" → "ger").
func LanguageCode(tag string) string {
	primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	primary, _, _ = strings.Cut(primary, "_")
	if code, ok := iso639_1()[primary]; ok {
		return code
	}
	if code, ok := terminologyToMARC[primary]; ok {
		return code
	}
	if len(primary) == 3 && isLowerASCII(primary) && marcCodes()[primary] {
		return primary
	}
	return "und"
}

func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// iso639_1 maps ISO 639-1 codes (and the withdrawn iw, in, ji) to MARC
// language codes, which follow ISO 639-2/B.
var iso639_1 = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"aa": "aar", "ab": "abk", "ae": "ave", "af": "afr", "ak": "aka", "am": "amh", "an": "arg", "ar": "ara",
		"as": "asm", "av": "ava", "ay": "aym", "az": "aze", "ba": "bak", "be": "bel", "bg": "bul", "bi": "bis",
		"bm": "bam", "bn": "ben", "bo": "tib", "br": "bre", "bs": "bos", "ca": "cat", "ce": "che", "ch": "cha",
		"co": "cos", "cr": "cre", "cs": "cze", "cu": "chu", "cv": "chv", "cy": "wel", "da": "dan", "de": "ger",
		"dv": "div", "dz": "dzo", "ee": "ewe", "el": "gre", "en": "eng", "eo": "epo", "es": "spa", "et": "est",
		"eu": "baq", "fa": "per", "ff": "ful", "fi": "fin", "fj": "fij", "fo": "fao", "fr": "fre", "fy": "fry",
		"ga": "gle", "gd": "gla", "gl": "glg", "gn": "grn", "gu": "guj", "gv": "glv", "ha": "hau", "he": "heb",
		"hi": "hin", "ho": "hmo", "hr": "hrv", "ht": "hat", "hu": "hun", "hy": "arm", "hz": "her", "ia": "ina",
		"id": "ind", "ie": "ile", "ig": "ibo", "ii": "iii", "ik": "ipk", "io": "ido", "is": "ice", "it": "ita",
		"iu": "iku", "ja": "jpn", "jv": "jav", "ka": "geo", "kg": "kon", "ki": "kik", "kj": "kua", "kk": "kaz",
		"kl": "kal", "km": "khm", "kn": "kan", "ko": "kor", "kr": "kau", "ks": "kas", "ku": "kur", "kv": "kom",
		"kw": "cor", "ky": "kir", "la": "lat", "lb": "ltz", "lg": "lug", "li": "lim", "ln": "lin", "lo": "lao",
		"lt": "lit", "lu": "lub", "lv": "lav", "mg": "mlg", "mh": "mah", "mi": "mao", "mk": "mac", "ml": "mal",
		"mn": "mon", "mr": "mar", "ms": "may", "mt": "mlt", "my": "bur", "na": "nau", "nb": "nob", "nd": "nde",
		"ne": "nep", "ng": "ndo", "nl": "dut", "nn": "nno", "no": "nor", "nr": "nbl", "nv": "nav", "ny": "nya",
		"oc": "oci", "oj": "oji", "om": "orm", "or": "ori", "os": "oss", "pa": "pan", "pi": "pli", "pl": "pol",
		"ps": "pus", "pt": "por", "qu": "que", "rm": "roh", "rn": "run", "ro": "rum", "ru": "rus", "rw": "kin",
		"sa": "san", "sc": "srd", "sd": "snd", "se": "sme", "sg": "sag", "si": "sin", "sk": "slo", "sl": "slv",
		"sm": "smo", "sn": "sna", "so": "som", "sq": "alb", "sr": "srp", "ss": "ssw", "st": "sot", "su": "sun",
		"sv": "swe", "sw": "swa", "ta": "tam", "te": "tel", "tg": "tgk", "th": "tha", "ti": "tir", "tk": "tuk",
		"tl": "tgl", "tn": "tsn", "to": "ton", "tr": "tur", "ts": "tso", "tt": "tat", "tw": "twi", "ty": "tah",
		"ug": "uig", "uk": "ukr", "ur": "urd", "uz": "uzb", "ve": "ven", "vi": "vie", "vo": "vol", "wa": "wln",
		"wo": "wol", "xh": "xho", "yi": "yid", "yo": "yor", "za": "zha", "zh": "chi", "zu": "zul", "iw": "heb",
		"in": "ind", "ji": "yid",
	}
})

// terminologyToMARC maps the ISO 639-2/T codes that differ from their
// bibliographic (MARC) form.
var terminologyToMARC = map[string]string{
	"bod": "tib", "ces": "cze", "cym": "wel", "deu": "ger", "ell": "gre", "eus": "baq", "fas": "per", "fra": "fre",
	"hye": "arm", "isl": "ice", "kat": "geo", "mkd": "mac", "mri": "mao", "msa": "may", "mya": "bur", "nld": "dut",
	"ron": "rum", "slk": "slo", "sqi": "alb", "zho": "chi",
}

// marcCodes is the set of MARC language codes accepted as given.
var marcCodes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"aar": true, "abk": true, "afr": true, "aka": true, "alb": true, "amh": true, "ang": true, "ara": true, "arg": true, "arm": true,
		"asm": true, "ast": true, "ava": true, "ave": true, "aym": true, "aze": true, "bak": true, "bam": true, "baq": true, "bel": true,
		"ben": true, "bis": true, "bos": true, "bre": true, "bul": true, "bur": true, "cat": true, "ceb": true, "cha": true, "che": true,
		"chi": true, "chr": true, "chu": true, "chv": true, "cop": true, "cor": true, "cos": true, "cre": true, "crh": true, "cze": true,
		"dan": true, "div": true, "dut": true, "dzo": true, "eng": true, "enm": true, "epo": true, "est": true, "ewe": true, "fao": true,
		"fij": true, "fil": true, "fin": true, "fre": true, "fry": true, "ful": true, "geo": true, "ger": true, "gla": true, "gle": true,
		"glg": true, "glv": true, "grc": true, "gre": true, "grn": true, "guj": true, "hat": true, "hau": true, "haw": true, "heb": true,
		"her": true, "hil": true, "hin": true, "hmo": true, "hrv": true, "hun": true, "ibo": true, "ice": true, "ido": true, "iii": true,
		"iku": true, "ile": true, "ina": true, "ind": true, "ipk": true, "ita": true, "jav": true, "jpn": true, "kal": true, "kan": true,
		"kas": true, "kau": true, "kaz": true, "khm": true, "kik": true, "kin": true, "kir": true, "kom": true, "kon": true, "kor": true,
		"kua": true, "kur": true, "lad": true, "lao": true, "lat": true, "lav": true, "lim": true, "lin": true, "lit": true, "ltz": true,
		"lub": true, "lug": true, "mac": true, "mah": true, "mal": true, "mao": true, "mar": true, "may": true, "mlg": true, "mlt": true,
		"mon": true, "mul": true, "nau": true, "nav": true, "nbl": true, "nde": true, "ndo": true, "nep": true, "nno": true, "nob": true,
		"nor": true, "nya": true, "oci": true, "oji": true, "ori": true, "orm": true, "oss": true, "pan": true, "per": true, "pli": true,
		"pol": true, "por": true, "pus": true, "que": true, "roh": true, "rum": true, "run": true, "rus": true, "sag": true, "san": true,
		"sco": true, "sin": true, "slo": true, "slv": true, "sme": true, "smo": true, "sna": true, "snd": true, "som": true, "sot": true,
		"spa": true, "srd": true, "srp": true, "ssw": true, "sun": true, "swa": true, "swe": true, "syr": true, "tah": true, "tam": true,
		"tat": true, "tel": true, "tgk": true, "tgl": true, "tha": true, "tib": true, "tir": true, "ton": true, "tsn": true, "tso": true,
		"tuk": true, "tur": true, "twi": true, "uig": true, "ukr": true, "und": true, "urd": true, "uzb": true, "ven": true, "vie": true,
		"vol": true, "wel": true, "wln": true, "wol": true, "xho": true, "yid": true, "yor": true, "zha": true, "zul": true, "zxx": true,
	}
})
