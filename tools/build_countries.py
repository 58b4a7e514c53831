"""Build flags/countries.json from the world-countries npm dataset plus facts authored here.

Usage:  npm pack world-countries@5.1.0 && tar xzf world-countries-5.1.0.tgz
        python tools/build_countries.py package/countries.json package/data > flags/countries.json

The dataset (mledoze/countries, ODbL-1.0) gives codes, names, capitals, regions, languages,
landlocked, borders, area, currencies and calling codes; its geometry (data/<cca3>.geo.json)
checks the hemisphere facts. Memberships, monarchy, island status and the other facts below
are authored and dated (state of late 2026); flags/README.md records the sources.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

EXTRA = ("PS", "XK", "TW")  # the observer state Palestine, plus Kosovo and Taiwan
# The dataset marks the Holy See as a UN member; it is an observer state.
STATUS = {"VA": "observer", "PS": "observer", "XK": "other", "TW": "other"}

NAMES = {
    "CI": "Ivory Coast",
    "CG": "Republic of the Congo",
    "CD": "DR Congo",
    "FM": "Micronesia",
    "VA": "Vatican City",
    "ST": "São Tomé and Príncipe",
    "TL": "Timor-Leste",
    "MK": "North Macedonia",
    "CZ": "Czechia",
    "SZ": "Eswatini",
    "CV": "Cape Verde",
}

# Countries on two continents by the usual boundaries (the Ural and the Ural River, the Bosporus
# and the Dardanelles, the Suez Canal) are in both, so a board never puts Türkiye among "Asia"
# while it could honestly fill "Europe" (flags/README.md, house rules). The Caucasus is where the
# boundary itself is disputed (the Greater Caucasus watershed or the Kuma-Manych Depression): Georgia,
# Armenia and Azerbaijan are in Asia, the dataset's region, and Europe is an arguable reading
# (ARGUABLE); Cyprus is in Europe, the dataset's region, and Asia (where the island lies) arguable.
# Indonesia is Asian to players (the dataset's region); its half of New Guinea is an arguable
# Oceania reading.
CONTINENTS = {
    "RU": ["Europe", "Asia"],
    "TR": ["Asia", "Europe"],
    "KZ": ["Asia", "Europe"],
    "EG": ["Africa", "Asia"],
}

# Land borders the dataset leaves out because they run through overseas regions that are part of a
# country (French Guiana; Ceuta and Melilla). Borders through dependent territories (Gibraltar and
# the Sovereign Base Areas for the UK, Saint Martin for France) are arguable readings (ARGUABLE), as
# dependent territories are for the hemispheres (flags/README.md, "House rules for facts").
EXTRA_BORDERS = [("FR", "BR"), ("FR", "SR"), ("ES", "MA")]
# Borders the dataset lists that are not land borders: Tanzania and DR Congo meet only in Lake
# Tanganyika (Wikipedia, "DR Congo-Tanzania border"); arguable.
DROP_BORDERS = [("TZ", "CD")]

ISLAND = set(
    "AG BS BB BH BN CV KM CU CY DM DO FJ GD HT IS ID IE JM JP KI MG MV MT MH MU FM NR NZ "
    "PW PG PH KN LC VC WS ST SC SG SB LK TW TL TO TT TV GB VU".split()
)
REALMS = set("GB AU CA NZ JM BS BZ AG KN LC VC GD PG SB TV".split())
MONARCHY = REALMS | set("AD BE BT BH BN KH DK SZ JP JO KW LS LI LU MY MC MA NL NO OM QA SA ES SE TH TO AE VA".split())
DRIVES_LEFT = set(
    "GB IE MT CY JP IN PK BD NP BT LK MV TH MY SG BN ID TL ZA LS SZ BW NA ZW ZM MZ "
    "MW TZ KE UG MU SC JM BS BB TT GY SR AG DM GD KN LC VC AU NZ FJ PG SB WS TO TV "
    "KI NR".split()
)
# The equator and the prime meridian (the hemispheres are checked against the dataset outlines in main()).
# The 11 countries whose land the equator crosses; in Kiribati and the Maldives it crosses only
# the sea between atolls (both still have islands on each side).
EQUATOR = set("BR CO EC GA CG CD UG KE SO ID ST".split())
# Equatorial Guinea: the equator misses its land, but Annobón lies south of it and the mainland north.
# France: Réunion and Mayotte are regions of France itself (as French Guiana is for its borders);
# dependent territories of other countries (the UK's Falklands, American Samoa, Norway's Bouvet
# Island) are arguable readings in countries.json, not facts here.
BOTH_HEMISPHERES = EQUATOR | {"GQ", "KI", "MV", "FR"}
# Countries whose dataset outline does not show their land on both sides (see check in main()).
OUTLINE_MISSES = {
    "ST": "the outline omits the equator islet Ilhéu das Rolas",
    "FR": "the outline is metropolitan France only",
}
PRIME_MERIDIAN = set("GB FR ES DZ ML BF TG GH".split())

MEMBERSHIPS = {
    "EU": "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE",
    "NATO": "AL BE BG CA HR CZ DK EE FI FR DE GR HU IS IT LV LT LU ME NL MK NO PL PT RO SK SI ES SE TR GB US",
    "G7": "US CA GB FR DE IT JP",
    "G20": "AR AU BR CA CN FR DE IN ID IT JP KR MX RU SA ZA TR GB US",
    "Commonwealth": "BW CM GA GM GH KE LS MW MU MZ NA NG RW SC SL ZA SZ TG UG TZ ZM BD BN IN MY MV PK "
    "SG LK AG BS BB BZ CA DM GD GY JM KN LC VC TT CY MT GB AU FJ KI NR NZ PG WS SB TO TV VU",
    "OPEC": "DZ CG GQ GA IR IQ KW LY NG SA AE VE",
    "ASEAN": "BN KH ID LA MY MM PH SG TH VN TL",
    "Arab League": "DZ BH KM DJ EG IQ JO KW LB LY MR MA OM PS QA SA SO SD SY TN AE YE",
    "Schengen": "AT BE BG HR CZ DK EE FI FR DE GR HU IS IT LV LT LI LU MT NL NO PL PT RO SK SI ES SE CH",
    "GCC": "BH KW OM QA SA AE",
    "Nordic Council": "DK FI IS NO SE",
    "CARICOM": "AG BS BB BZ DM GD GY HT JM KN LC VC SR TT",
    "OECD": "AU AT BE CA CL CO CR CZ DK EE FI FR DE GR HU IS IE IL IT JP KR LV LT LU MX NL NZ NO PL "
    "PT SK SI ES SE CH TR GB US",
    "UN Security Council permanent": "CN FR RU GB US",
    # BRIC at its first summit (2009); South Africa joined in 2010.
    "BRIC founding": "BR RU IN CN",
    "Arab Maghreb Union": "DZ LY MA MR TN",
}
HISTORY = {
    "former Soviet republic": "RU UA BY MD EE LV LT GE AM AZ KZ KG TJ TM UZ",
    "former Yugoslav republic": "SI HR BA RS ME MK XK",
    "hosted the FIFA World Cup": "UY IT FR BR CH SE CL GB MX DE AR ES US KR JP ZA RU QA CA",
    "hosted the Summer Olympics": "GR FR US GB SE BE NL DE FI AU IT JP MX CA RU KR ES CN BR",
}
COASTS = {
    "Mediterranean Sea": "ES FR MC IT MT SI HR BA ME AL GR TR CY SY LB IL PS EG LY TN DZ MA",
    "Black Sea": "TR BG RO UA RU GE",
    "Baltic Sea": "SE FI RU EE LV LT PL DE DK",
    "Caspian Sea": "RU KZ TM IR AZ",
    "Persian Gulf": "IR IQ KW SA BH QA AE OM",
    "Red Sea": "EG SD ER DJ SA YE JO IL",
}
REGIONS = {"Horn of Africa": "DJ ER ET SO"}
# Language fixes over the dataset: Austria and Switzerland list German only as dialect names;
# Rwanda made Swahili official in 2017, Burundi English in 2014. Russian is not official in
# Azerbaijan, Turkmenistan or Uzbekistan, nor Spanish in Belize, nor German in Namibia (a recognised
# national language only). Mali (constitution of 2023) made its 13 national languages official and
# French a working language; Burkina Faso (constitutional revision of December 2023) and Niger
# (Refoundation Charter of March 2025, Hausa the national language) also keep French only as a
# working language. Lebanon's constitution makes Arabic the official language (French is used by
# law in some cases); Malaysia's, Malay (English has no official status); Israel's Basic Law of
# 2018 gives Arabic a "special status", no longer official; Tajikistan's constitution makes Russian
# the "language of inter-ethnic communication"; Eritrea has no official language (Tigrinya, Arabic
# and English are working languages); DR Congo's Swahili, Lingala, Kikongo and Tshiluba are national
# languages beside the official French. The arguable readings are in countries.json.
LANGUAGE_ADD = {
    "AT": ["German"],
    "CH": ["German"],
    "RW": ["Swahili"],
    "BI": ["English"],
    "NE": ["Hausa"],
    "ML": [
        "Bambara",
        "Bobo",
        "Bozo",
        "Dogon",
        "Fula",
        "Hassaniya",
        "Kassonke",
        "Maninke",
        "Minyanka",
        "Senufo",
        "Songhay",
        "Soninke",
        "Tamasheq",
    ],
}
LANGUAGE_DROP = {
    "AZ": ["Russian"],
    "TM": ["Russian"],
    "UZ": ["Russian"],
    "BZ": ["Spanish"],
    "NA": ["German"],
    "ML": ["French"],
    "BF": ["French"],
    "NE": ["French"],
    "LB": ["French"],
    "MY": ["English"],
    "IL": ["Arabic"],
    "TJ": ["Russian"],
    "ER": ["Arabic", "English", "Tigrinya"],
    "CD": ["Swahili", "Lingala", "Kikongo", "Tshiluba"],
}
# Bulgaria adopted the euro on 1 January 2026; the dataset still lists the lev. Micronesia uses the
# US dollar (the dataset lists no currency).
CURRENCY_OVERRIDES = {"BG": ["Euro"], "ZW": ["Zimbabwe Gold", "United States dollar"], "FM": ["United States dollar"]}

# Readings a reasonable player may take although the facts above differ (written as each country's
# "arguable" key; flags/README.md, "Arguable readings"). Sets toggle a value, single values give an
# alternative ("true"/"false" for yes/no facts).
ARGUABLE: dict[str, dict[str, dict[str, str]]] = {
    "GB": {
        "hemispheres": {"south": "the Falkland Islands, St Helena and other dependent territories lie in the south"},
        "coasts": {"Mediterranean Sea": "Gibraltar and the Sovereign Base Areas on Cyprus are British"},
    },
    "US": {"hemispheres": {"south": "American Samoa lies in the south"}},
    "NO": {"hemispheres": {"south": "Bouvet Island, a Norwegian dependency, lies in the south"}},
    "KI": {"equator": {"true": "the equator crosses its waters between the Gilbert Islands"}},
    "MV": {"equator": {"true": "the equator crosses its waters between its southern atolls"}},
    "ID": {"continents": {"Oceania": "its half of New Guinea lies in Oceania"}},
    "GE": {"continents": {"Europe": "its north lies beyond the Greater Caucasus watershed"}},
    "AM": {"continents": {"Europe": "in Europe if the boundary follows the Kuma-Manych Depression"}},
    "AZ": {"continents": {"Europe": "its north lies beyond the Greater Caucasus watershed"}},
    "CY": {"continents": {"Asia": "the island lies off the coast of Asia"}},
    "BN": {"island": {"false": "it shares Borneo with Malaysia and Indonesia"}},
    "MY": {"languages": {"English": "widely used in law and government, though not official"}},
    "ER": {
        "languages": {
            "English": "a working language (Eritrea has no official language)",
            "Arabic": "a working language (Eritrea has no official language)",
        }
    },
    "IL": {"languages": {"Arabic": "official until 2018, now a language with special status"}},
    "TJ": {"languages": {"Russian": "the constitution's language of inter-ethnic communication"}},
    "CD": {"languages": {"Swahili": "one of the four national languages"}},
    "ML": {"languages": {"French": "official until 2023, still a working language"}},
    "BF": {"languages": {"French": "official until 2023, still a working language"}},
    "NE": {"languages": {"French": "official until 2025, still a working language"}},
    "LB": {"languages": {"French": "used by law beside the official Arabic"}},
    "ZA": {"memberships": {"BRIC founding": "joined in 2010, the S of BRICS"}},
}


# --- Trivia facts (issue 20). Each is authored here with its source; a player's other reading is an
# arguable reading (MORE_ARGUABLE below), so it never makes a board ambiguous.

# Ocean coasts. An ocean includes the seas, gulfs and bays along its edge (the Caribbean, the Gulf of
# Mexico, the North Sea, the Gulf of Guinea, the Arabian Sea, the Bay of Bengal, the Gulf of Aden,
# the South China Sea, the Gulf of Thailand, the Coral Sea), not the enclosed seas that have labels
# of their own (the Mediterranean, Black, Baltic and Red seas, the Persian Gulf). France counts its
# overseas regions (French Guiana, Réunion, Mayotte). Source: each country's coastline in the IHO's
# "Limits of Oceans and Seas" (1953) as summarised by Wikipedia's article on each ocean and sea.
COASTS.update(
    {
        "Atlantic Ocean": "CA US MX GT BZ HN NI CR PA CO VE GY SR BR UY AR CU JM HT DO BS AG KN DM LC VC BB GD TT "
        "IS IE GB NO DK DE NL BE FR ES PT MA MR SN GM GW GN SL LR CI GH TG BJ NG CM GQ GA CG CD AO NA ZA CV ST",
        "Pacific Ocean": "CA US MX GT SV HN NI CR PA CO EC PE CL RU CN KP KR JP TW PH VN KH TH MY BN ID AU NZ PG "
        "SB VU FJ WS TO TV KI NR MH FM PW",
        "Indian Ocean": "ZA MZ TZ KE SO DJ YE OM AE IR PK IN BD MM TH MY ID AU TL MG MU SC KM MV LK FR",
    }
)

# TRIVIA: authored yes/no facts a category tests ("trivia": the facts that hold).
TRIVIA = {
    # The capital lies on the sea (its shore, a bay or a lagoon open to it), not up a river or on a
    # lake. Source: each capital's Wikipedia article (location and map). Capitals on an estuary or a
    # few km inland from the shore are arguable (MORE_ARGUABLE).
    "capital on the coast": "IE IS NO DK SE FI EE LV MT MC KW BH QA AE OM LB MV SG ID PH TL JP LK "
    "LY TN DZ MA MR SN GM GN SL LR GH TG GQ GA ST AO MZ DJ SO MU SC KM CV "
    "PA CU JM HT DO BS KN AG DM LC VC BB GD TT GY PE NZ PG SB VU FJ WS TO TV KI MH NR",
    # More than one time zone in use on its own territory (overseas regions that are part of the
    # country count, dependent territories do not). Source: Wikipedia, "List of time zones by
    # country" (2026); Kazakhstan moved to a single zone (UTC+5) on 1 March 2024.
    "several time zones": "RU US CA AU BR MX ID CD MN KI FM PG EC ES PT CL NZ FR NL",
    # Over 100 million people. Source: UN World Population Prospects 2024 (estimates for 2024).
    "over 100 million people": "CN IN US ID PK NG BR BD RU ET MX JP EG PH CD VN",
    # Named after a person (saints included). Source: Wikipedia, "List of country-name
    # etymologies": Bolivia (Simón Bolívar), Colombia (Columbus), Philippines (Philip II), Saudi
    # Arabia (the House of Saud's founder), Marshall Islands (John Marshall), Solomon Islands (King
    # Solomon), Mauritius (Maurice of Nassau), Seychelles (Jean Moreau de Séchelles), Saint Kitts
    # (Saint Christopher), Saint Lucia, Saint Vincent, São Tomé (Saint Thomas), San Marino (Saint
    # Marinus). Indirect namings are arguable (MORE_ARGUABLE).
    "named after a person": "BO CO PH SA MH SB MU SC KN LC VC ST SM",
    # Named after a river. Source: as above: Congo (both), Niger, Nigeria, Gambia, Senegal, India
    # (the Indus), Paraguay, Uruguay, Zambia (the Zambezi), Jordan, Moldova, Suriname.
    "named after a river": "CG CD NE NG GM SN IN PY UY ZM JO MD SR",
    # The capital is named after a person. Source: each capital's Wikipedia article: Washington,
    # Georgetown (George III), Monrovia (James Monroe), Wellington, Valletta (Jean de Valette), Port
    # Louis (Louis XV), Victoria, Brazzaville (Pierre de Brazza), Gaborone (Kgosi Gaborone),
    # Yamoussoukro (Queen Yamousso), Malabo (King Malabo), Pretoria (Andries Pretorius), Sucre
    # (Antonio José de Sucre), Santo Domingo (Saint Dominic), San José (Saint Joseph), Santiago
    # (Saint James), São Tomé (Saint Thomas), San Marino (Saint Marinus), St. George's (George III),
    # Castries (the Marquis de Castries), Bandar Seri Begawan (Sultan Omar Ali Saifuddien III), Port
    # Moresby (Admiral Fairfax Moresby).
    "capital named after a person": "US GY LR NZ MT MU SC CG BW CI GQ ZA BO DO CR CL ST SM GD LC BN PG",
}
# Won the men's FIFA World Cup, 1930-2022. Source: Wikipedia, "FIFA World Cup" (list of finals).
# England won in 1966 for the United Kingdom's nations, which play apart: arguable.
HISTORY["won the FIFA World Cup by 2022"] = "UY IT DE BR AR FR ES"

# Further readings a player may take (code, attribute, value, reason), merged into ARGUABLE below.
MORE_ARGUABLE = [
    ("TZ", "neighbours", "CD", "they meet in Lake Tanganyika, not on land"),
    ("CD", "neighbours", "TZ", "they meet in Lake Tanganyika, not on land"),
    ("GB", "neighbours", "ES", "Gibraltar, a British overseas territory, borders Spain"),
    ("ES", "neighbours", "GB", "Gibraltar, a British overseas territory, borders Spain"),
    ("GB", "neighbours", "CY", "the British Sovereign Base Areas lie on Cyprus"),
    ("CY", "neighbours", "GB", "the British Sovereign Base Areas lie on Cyprus"),
    ("FR", "neighbours", "NL", "Saint Martin, a French overseas collectivity, borders Sint Maarten"),
    ("NL", "neighbours", "FR", "Sint Maarten, in the Kingdom of the Netherlands, borders Saint Martin"),
    ("SE", "coasts", "Atlantic Ocean", "the Kattegat and the Skagerrak open to the North Sea"),
    ("CL", "coasts", "Atlantic Ocean", "its far south reaches the Atlantic around Tierra del Fuego"),
    ("SG", "coasts", "Pacific Ocean", "the Singapore Strait opens to the South China Sea"),
    ("TL", "coasts", "Pacific Ocean", "its north coast faces the Banda Sea"),
    # the blind play-test of issue 24: facts that hold only through an exclave or a marginal sea
    ("OM", "coasts", "Persian Gulf", "only its Musandam exclave, on the Strait of Hormuz, reaches the Gulf"),
    ("AZ", "neighbours", "TR", "the border is the short one of its Nakhchivan exclave"),
    ("TR", "neighbours", "AZ", "the border is the short one of Azerbaijan's Nakhchivan exclave"),
    ("BN", "coasts", "Pacific Ocean", "its coast faces the South China Sea, a marginal sea of the Pacific"),
    ("CI", "name", "Côte d'Ivoire", "its own name (the one its government asks for) starts with C, not I"),
    # the fourth blind play-test: Serbia reaches eight neighbours only with Kosovo
    ("RS", "neighbours", "XK", "Serbia does not recognise Kosovo's independence: to some players it is no border"),
    *(
        (code, "coasts", "Indian Ocean", "the Red Sea and the Persian Gulf are arms of the Indian Ocean")
        for code in "ER SD SA EG JO IL IQ KW BH QA".split()
    ),
    ("PT", "trivia", "capital on the coast", "Lisbon lies on the Tagus estuary at the Atlantic"),
    ("NL", "trivia", "capital on the coast", "Amsterdam lies on the IJ, a former arm of the sea"),
    ("IT", "trivia", "capital on the coast", "Rome's municipality reaches the sea at Ostia"),
    ("GR", "trivia", "capital on the coast", "Athens' urban area reaches the sea at Piraeus"),
    ("AZ", "trivia", "capital on the coast", "Baku lies on the Caspian Sea, a lake"),
    ("LK", "trivia", "capital on the coast", "the official capital, Sri Jayawardenepura Kotte, lies inland"),
    ("TH", "trivia", "capital on the coast", "Bangkok's southern district touches the Gulf of Thailand"),
    ("BN", "trivia", "capital on the coast", "Bandar Seri Begawan lies on the Brunei River near its bay"),
    ("TZ", "trivia", "capital on the coast", "Dar es Salaam, on the coast, is the seat of government"),
    ("ZA", "trivia", "capital on the coast", "Cape Town, on the coast, is one of its three capitals"),
    ("BJ", "trivia", "capital on the coast", "Porto-Novo lies on a lagoon; Cotonou is the seat of government"),
    ("CI", "trivia", "capital on the coast", "Abidjan, on the coast, is the seat of government"),
    ("GW", "trivia", "capital on the coast", "Bissau lies on the Geba estuary"),
    ("AR", "trivia", "capital on the coast", "Buenos Aires lies on the Río de la Plata estuary"),
    ("UY", "trivia", "capital on the coast", "Montevideo lies on the Río de la Plata estuary"),
    ("SR", "trivia", "capital on the coast", "Paramaribo lies on the Suriname River near its mouth"),
    ("FM", "trivia", "capital on the coast", "Palikir lies a few km inland on Pohnpei"),
    ("PW", "trivia", "capital on the coast", "Ngerulmud lies a few km from Babeldaob's coast"),
    ("DK", "trivia", "several time zones", "Greenland and the Faroe Islands are in the Kingdom of Denmark"),
    ("GB", "trivia", "several time zones", "its overseas territories keep other zones"),
    ("KZ", "trivia", "several time zones", "it had two zones until March 2024"),
    ("DO", "trivia", "named after a person", "named after Santo Domingo, named after Saint Dominic"),
    ("SV", "trivia", "named after a person", "El Salvador means the Saviour"),
    ("IL", "trivia", "named after a person", "Israel is the name given to Jacob"),
    ("US", "trivia", "named after a person", "America is named after Amerigo Vespucci"),
    ("LI", "trivia", "named after a person", "named after its ruling house"),
    ("KI", "trivia", "named after a person", "Kiribati is the Gilbertese form of Gilbert (Thomas Gilbert)"),
    # Play-test of issue 20 (trivia): names whose leading or a common etymology is a person, by way
    # of a place, a people or an icon. Source: each country's Wikipedia article, "Etymology".
    ("NI", "trivia", "named after a person", "often said to be named after Nicarao, a Nahua chief"),
    ("AZ", "trivia", "named after a person", "Atropatene, the old name, honours the satrap Atropates"),
    ("AG", "trivia", "named after a person", "Antigua honours Santa María la Antigua, an icon of the Virgin Mary"),
    ("MZ", "trivia", "named after a person", "its island is named after Mussa Bin Bique, an Arab trader"),
    ("PE", "trivia", "named after a person", "probably from Birú, a local ruler near the Bay of San Miguel"),
    ("BZ", "trivia", "named after a person", "one theory derives Belize from Peter Wallace, a buccaneer"),
    ("SZ", "trivia", "named after a person", "the Swazi, its people, are named after King Mswati II"),
    ("UZ", "trivia", "named after a person", "one theory derives the Uzbeks' name from Öz Beg Khan"),
    ("AO", "trivia", "named after a person", "ngola was the title of the kings of Ndongo (Ngola a Kiluanje)"),
    ("GE", "trivia", "named after a person", "often said to honour Saint George (the name is Persian gurj)"),
    ("SV", "trivia", "capital named after a person", "San Salvador means the Holy Saviour"),
    ("AG", "trivia", "capital named after a person", "St. John's is named after its parish"),
    ("BS", "trivia", "capital named after a person", "Nassau honours William III of Orange-Nassau"),
    ("ZM", "trivia", "capital named after a person", "Lusaka is named after the headman Lusaaka"),
    ("SZ", "trivia", "capital named after a person", "Mbabane, the seat of government, is named after a chief"),
    ("ZW", "trivia", "capital named after a person", "Harare takes its name from the chief Neharawa"),
    # the play-test of issue 31: legends and gods tempted players too
    ("IT", "trivia", "capital named after a person", "Rome takes its name from Romulus, in legend"),
    ("GR", "trivia", "capital named after a person", "Athens is named after the goddess Athena"),
    # the blind play-test of 7rx8zs: a founder of legend, a king's and a prince's town, and the
    # Republic of the Congo's short name inside DR Congo's (the name rule wants the whole name)
    ("UA", "trivia", "capital named after a person", "Kyiv is named after Kyi, its founder in legend"),
    ("VC", "trivia", "capital named after a person", "Kingstown is the King's town"),
    ("JM", "trivia", "capital named after a person", "Kingston is the King's town (William III)"),
    ("HT", "trivia", "capital named after a person", "Port-au-Prince, the Prince's port, is named after a ship"),
    ("CD", "trivia", "a name holds another country's name", "'DR Congo' holds 'Congo', the Republic of the Congo"),
    ("GB", "history", "won the FIFA World Cup by 2022", "England won in 1966"),
    ("LR", "currencies", "United States dollar", "the US dollar is legal tender beside the Liberian dollar"),
    # the sixth blind play-test: a currency that circulates without being legal tender, and the
    # Baltic, an arm of the Atlantic to some players (as the Red Sea and the Gulf are of the Indian Ocean)
    ("BS", "currencies", "United States dollar", "accepted at par, but only the Bahamian dollar is legal tender"),
    ("PS", "currencies", "Egyptian pound", "once used in Gaza; the shekel and the Jordanian dinar circulate today"),
    *(
        (code, "coasts", "Atlantic Ocean", "the Baltic Sea is an arm of the Atlantic to some players")
        for code in "EE LV LT PL FI RU".split()
    ),
    # the eighth: the Mediterranean (and the Black Sea beyond it) opens to the Atlantic at Gibraltar
    *(
        (code, "coasts", "Atlantic Ocean", "the Mediterranean opens to the Atlantic: to some players a part of it")
        for code in "AL BA BG CY DZ EG GE GR HR IL IT LB LY MC ME MT PS RO SI SY TN TR UA".split()
    ),
]
for _code, _attr, _value, _reason in MORE_ARGUABLE:
    ARGUABLE.setdefault(_code, {}).setdefault(_attr, {})[_value] = _reason

# A name that holds another country's whole name (Nigeria holds Niger, Romania Oman): computed from
# the names in main(), a fact of the names this file writes.
NAME_HOLDS = "a name holds another country's name"


def continents(c: dict) -> list[str]:
    code = c["cca2"]
    if code in CONTINENTS:
        return CONTINENTS[code]
    if c["region"] == "Americas":
        return ["South America" if c["subregion"] == "South America" else "North America"]
    return [c["region"]]


def lat_bounds(data_dir: Path, cca3: str) -> tuple[float, float, float, float]:
    geo = json.loads((data_dir / f"{cca3.lower()}.geo.json").read_text())
    lats: list[float] = []
    lons: list[float] = []

    def walk(x: object) -> None:
        if isinstance(x, list) and x and isinstance(x[0], (int, float)):
            lons.append(float(x[0]))
            lats.append(float(x[1]))
        elif isinstance(x, list):
            for y in x:
                walk(y)

    for f in geo["features"]:
        if "geometry" in f:  # the dataset has no outline for Kosovo
            walk(f["geometry"]["coordinates"])
    if not lats:
        return 1.0, 1.0, 1.0, 1.0  # no outline: nothing to check against
    return min(lats), max(lats), min(lons), max(lons)


def main(countries_json: str, data_dir: str) -> None:
    raw = json.loads(Path(countries_json).read_text())
    keep = [c for c in raw if c["unMember"] or c["cca2"] in EXTRA]
    cca3 = {c["cca3"]: c["cca2"] for c in keep}
    codes = {c["cca2"] for c in keep}
    borders = {c["cca2"]: {cca3[b] for b in c["borders"] if b in cca3} for c in keep}
    for a, b in EXTRA_BORDERS:
        borders[a].add(b)
        borders[b].add(a)
    for a, b in DROP_BORDERS:
        borders[a].discard(b)
        borders[b].discard(a)
    for a, ns in borders.items():
        for b in sorted(ns):
            # One-sided entries are sea crossings (e.g. Sri Lanka - India), not land borders.
            if a not in borders[b]:
                print(f"check: dropped one-sided border {a}-{b}", file=sys.stderr)
                ns.discard(b)
    by_area = sorted(keep, key=lambda c: -c["area"])
    rank = {c["cca2"]: i + 1 for i, c in enumerate(by_area)}
    out = []
    problems = []
    for c in sorted(keep, key=lambda c: c["cca2"]):
        code = c["cca2"]
        lat_min, lat_max, lon_min, lon_max = lat_bounds(Path(data_dir), c["cca3"])
        on_equator = lat_min < 0 < lat_max
        if on_equator != (code in BOTH_HEMISPHERES) and code not in OUTLINE_MISSES:
            problems.append(f"{code}: geometry lat {lat_min:.2f}..{lat_max:.2f} vs equator list")
        hemis = ["north", "south"] if code in BOTH_HEMISPHERES else (["north"] if c["latlng"][0] > 0 else ["south"])
        if code not in BOTH_HEMISPHERES and ((lat_min > 0) != (hemis == ["north"])):
            problems.append(f"{code}: hemisphere from latlng disagrees with geometry")
        currencies = CURRENCY_OVERRIDES.get(code) or [v["name"] for v in c.get("currencies", {}).values()]
        members = sorted(k for k, v in MEMBERSHIPS.items() if code in v.split())
        if continents(c)[0] == "Africa" or code == "EG":
            members.append("African Union")
        out.append(
            {
                "code": code,
                "name": NAMES.get(code, c["name"]["common"]),
                "official_name": c["name"]["official"],
                "status": STATUS.get(code, "member"),
                "capital": c["capital"][0] if c["capital"] else None,
                "capitals": c["capital"],
                "continents": continents(c),
                "region": c["subregion"],
                "landlocked": bool(c["landlocked"]),
                "island": code in ISLAND,
                "languages": sorted(
                    (set(c["languages"].values()) | set(LANGUAGE_ADD.get(code, []))) - set(LANGUAGE_DROP.get(code, []))
                ),
                "hemispheres": hemis,
                "equator": code in EQUATOR,
                "prime_meridian": code in PRIME_MERIDIAN,
                "neighbours": sorted(borders[code]),
                "area_km2": c["area"],
                "area_rank": rank[code],
                "monarchy": code in MONARCHY,
                "commonwealth_realm": code in REALMS,
                "drives_left": code in DRIVES_LEFT,
                "memberships": sorted(members),
                "history": sorted(k for k, v in HISTORY.items() if code in v.split()),
                "coasts": sorted(k for k, v in COASTS.items() if code in v.split()),
                "regions": sorted(k for k, v in REGIONS.items() if code in v.split()),
                "currencies": currencies,
                "trivia": sorted(k for k, v in TRIVIA.items() if code in v.split()),
                "calling_code": c["idd"]["root"] + (c["idd"]["suffixes"][0] if len(c["idd"]["suffixes"]) == 1 else ""),
                **({"arguable": ARGUABLE[code]} if code in ARGUABLE else {}),
            }
        )
    names = {row["code"]: row["name"].lower() for row in out}
    for row in out:
        own = names[row["code"]]
        if any(n in own for c, n in names.items() if c != row["code"]):
            row["trivia"] = sorted([*row["trivia"], NAME_HOLDS])
    for table in (MEMBERSHIPS, HISTORY, COASTS, REGIONS, TRIVIA):
        for key, v in table.items():
            unknown = set(v.split()) - codes
            assert not unknown, f"{key}: unknown codes {unknown}"
            assert len(v.split()) == len(set(v.split())), f"{key}: duplicate code"
    for code in ISLAND | MONARCHY | DRIVES_LEFT | EQUATOR | PRIME_MERIDIAN | set(ARGUABLE):
        assert code in codes, code
    for p in problems:
        print("check:", p, file=sys.stderr)
    doc = {
        "source": "world-countries 5.1.0 (npm; mledoze/countries, ODbL-1.0) + facts authored in tools/build_countries.py",  # noqa: E501
        "countries": out,
    }
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
