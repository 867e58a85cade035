"""Words that point at a schema, and nouns that name a recurring entity. Plain data, no logic."""

# schema -> cue words (stems matched at a word start); these say what a turn is about.
SCHEMA_CUES: dict[str, tuple[str, ...]] = {
    "health": ("covid", "flu", "sick", "ill", "illness", "doctor", "hospital", "surgery", "symptom", "fever", "cough",
               "recover", "diagnos", "therapy", "therapist", "medicat", "medicine", "pain", "injur", "knee", "back pain",
               "headache", "migraine", "dentist", "iron", "blood", "pregnan", "cancer", "health", "tested positive",
               "vaccin", "allerg", "physio", "mental health", "depress"),
    "work": ("work", "job", "boss", "office", "deadline", "project", "colleague", "coworker", "manager", "promotion",
             "interview", "salary", "career", "client", "meeting", "shift", "nurse", "teacher", "teaching", "hired",
             "fired", "quit", "resign", "company", "business", "startup", "employ", "counsel", "volunteer"),
    "family and friends": ("sister", "brother", "mother", "mom", "mum", "father", "dad", "son", "daughter", "kids",
                           "children", "child", "wife", "husband", "partner", "friend", "grandma", "grandmother",
                           "grandpa", "grandfather", "aunt", "uncle", "cousin", "family", "parents", "baby",
                           "boyfriend", "girlfriend", "niece", "nephew", "adopt", "mentor"),
    "home": ("house", "home", "apartment", "flat", "moving", "moved", "rent", "landlord", "kitchen", "garden",
             "neighbo", "roof", "renovat", "furniture"),
    "travel": ("trip", "travel", "flight", "fly", "vacation", "holiday", "hotel", "airport", "abroad", "passport",
               "beach", "road trip", "tour", "visit", "europe", "backpack"),
    "pets": ("dog", "cat", "puppy", "kitten", "pet", "vet", "beagle", "labrador", "horse", "hamster", "parrot",
             "rabbit", "guinea pig", "walkies"),
    "hobbies": ("paint", "guitar", "piano", "violin", "music", "song", "concert", "band", "reading", "book", "novel",
                "hiking", "hike", "running", "marathon", "race", "football", "soccer", "basketball", "tennis", "chess",
                "photograph", "knit", "pottery", "camping", "dance", "dancing", "swim", "yoga", "game", "gaming",
                "art", "drawing", "sculpt", "poetry", "writing", "sing", "climb", "bike", "cycling", "surf", "fishing"),
    "food": ("vegetarian", "vegan", "meat", "fish", "eat", "eating", "diet", "dinner", "lunch", "breakfast",
             "restaurant", "recipe", "cook", "bake", "baking", "cake", "pizza", "coffee", "food", "meal"),
    "money": ("money", "loan", "mortgage", "debt", "savings", "budget", "bills", "bank", "tax", "invest", "expensive",
              "afford", "paid", "pay", "price"),
    "plans": ("plan", "planning", "wedding", "party", "birthday", "exam", "test", "appointment", "graduat",
              "conference", "deadline", "schedule", "goal", "next week", "next month", "adoption"),
}

# entity nouns: phrase -> (canonical entity name, schema). Longest phrases are matched first.
ENTITY_NOUNS: dict[str, tuple[str, str]] = {
    "covid": ("COVID", "health"), "flu": ("flu", "health"), "knee surgery": ("knee surgery", "health"),
    "surgery": ("surgery", "health"), "cancer": ("cancer", "health"), "migraine": ("migraines", "health"),
    "back pain": ("back pain", "health"), "therapy": ("therapy", "health"), "pregnancy": ("pregnancy", "health"),
    "pregnant": ("pregnancy", "health"), "mental health": ("mental health", "health"),
    "job": ("job", "work"), "work": ("job", "work"), "office": ("job", "work"), "career": ("job", "work"),
    "deadline": ("work deadline", "work"), "promotion": ("promotion", "work"), "interview": ("job interview", "work"),
    "boss": ("boss", "work"), "night shift": ("job", "work"),
    "driving test": ("driving test", "plans"), "driving exam": ("driving test", "plans"), "exam": ("exams", "plans"),
    "exams": ("exams", "plans"), "wedding": ("wedding", "plans"), "birthday": ("birthday", "plans"),
    "graduation": ("graduation", "plans"), "adoption": ("adoption", "family and friends"),
    "trip": ("trip", "travel"), "vacation": ("trip", "travel"), "holiday": ("trip", "travel"),
    "road trip": ("road trip", "travel"), "camping": ("camping", "hobbies"),
    "dog": ("dog", "pets"), "puppy": ("dog", "pets"), "cat": ("cat", "pets"), "kitten": ("cat", "pets"),
    "vegetarian": ("diet", "food"), "vegan": ("diet", "food"), "diet": ("diet", "food"), "meat": ("diet", "food"),
    "house": ("home", "home"), "apartment": ("home", "home"), "flat": ("home", "home"), "moving": ("move", "home"),
    "painting": ("painting", "hobbies"), "paint": ("painting", "hobbies"), "pottery": ("pottery", "hobbies"),
    "guitar": ("guitar", "hobbies"), "piano": ("piano", "hobbies"), "violin": ("violin", "hobbies"),
    "running": ("running", "hobbies"), "marathon": ("running", "hobbies"), "hiking": ("hiking", "hobbies"),
    "reading": ("reading", "hobbies"), "books": ("reading", "hobbies"), "yoga": ("yoga", "hobbies"),
    "photography": ("photography", "hobbies"), "dance": ("dancing", "hobbies"), "dancing": ("dancing", "hobbies"),
    "swimming": ("swimming", "hobbies"), "music": ("music", "hobbies"), "concert": ("music", "hobbies"),
    "chess": ("chess", "hobbies"), "football": ("football", "hobbies"), "soccer": ("football", "hobbies"),
    "mortgage": ("mortgage", "money"), "loan": ("loan", "money"), "savings": ("savings", "money"),
    "debt": ("debt", "money"), "budget": ("budget", "money"),
    "support group": ("support group", "health"), "school": ("school", "work"), "college": ("college", "work"),
    "university": ("university", "work"), "kids": ("kids", "family and friends"),
    "children": ("kids", "family and friends"), "family": ("family", "family and friends"),
    # the weather, small talk's commonest subject, said as a verb or an adjective as often as a noun
    **{w: ("weather", "everyday") for w in ("weather", "rain", "raining", "rainy", "snow", "snowing", "snowy", "storm",
                                          "stormy", "sunny", "sunshine", "windy", "fog", "foggy", "heatwave", "hail",
                                          "hailing", "drizzle", "drizzling", "thunder")},
}

# relation or kind words that, before a capitalised name, give it a schema and an alias: "my sister Anna".
KIND_WORDS: dict[str, str] = {
    **{w: "family and friends" for w in ("sister", "brother", "mother", "mom", "mum", "father", "dad", "son",
                                         "daughter", "wife", "husband", "partner", "friend", "best friend",
                                         "grandma", "grandmother", "grandpa", "grandfather", "aunt", "uncle",
                                         "cousin", "boyfriend", "girlfriend", "niece", "nephew", "mentor",
                                         "neighbour", "neighbor", "colleague", "boss", "coworker",
                                         # the rest of a household and family, one or several of them
                                         "parents", "kids", "children", "twins", "grandson", "granddaughter",
                                         "grandchildren", "grandkids", "fiance", "fiancé", "fiancee", "fiancée",
                                         "stepson", "stepdaughter", "stepmother", "stepfather", "in-laws",
                                         "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law",
                                         "flatmate", "roommate", "housemate", "teacher")},
    **{w: "pets" for w in ("dog", "puppy", "cat", "kitten", "beagle", "labrador", "horse", "hamster", "parrot",
                           "rabbit", "pet")},
}
# The words one relation goes by: "my mum" one day and "my mom" (as Whisper may write it) the next are
# one person, and so is "Mum" said as a name.
SAME_RELATION: tuple[frozenset[str], ...] = tuple(frozenset(group.split()) for group in (
    "mother mom mum mummy mommy", "father dad daddy", "grandmother grandma granny nana",
    "grandfather grandpa grandad granddad", "kids children", "grandchildren grandkids",
    "fiance fiancé fiancee fiancée"))
RELATION_GROUP: dict[str, frozenset[str]] = {word: group for group in SAME_RELATION for word in group}


def known_as(name: str, aliases) -> list[str]:
    """What an entity is called: its name and aliases, and every word for a relation among them
    ("my mum Anna" is also "Mom" and "my mother")."""
    said = [name, *aliases]
    return list(dict.fromkeys([*said, *(w for a in said for w in sorted(RELATION_GROUP.get(a.lower(), ())))]))


PET_WORDS = {"dog", "puppy", "beagle", "labrador", "cat", "kitten", "hamster", "parrot", "rabbit", "horse"}

# capitalised words that are not names
NOT_NAMES = set("""i i'm i've i'll i'd im a an the my our your his her their its we he she it they you me us them
this that these those there here what when where why how who which whose but and or so if then because also just
well oh hey hi hello yes yeah yep yup no nope ok okay sure thanks thank wow yay great good bad nice cool awesome congrats
congratulations please sorry hmm haha lol omg anyway actually honestly really totally today yesterday tomorrow
tonight last next this monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays
thursdays fridays saturdays sundays weekends january february march april may june
july august september october november december is are was were be been do did does have has had can could will
would should might must let lets let's not don't didn't can't won't it's that's what's there's i'd glad love
happy excited sounds guess know think maybe definitely absolutely totally exactly right true agree same mr mrs ms dr
st wish hope we're you're they're he's she's it's i've we've hopefully looks look see got get take make made keep always never sometimes whoa aww ah ahh wait""".split())

# The assistant's own name: said to greet it ("Hi Hearth, I'm Dana"), never an entity of the person's memory
ASSISTANT_NAMES = frozenset({"hearth"})

PLACE_PREPOSITIONS = ("in", "to", "from", "visit", "visited", "visiting", "around", "near", "across")
