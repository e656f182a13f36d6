"""Word lists the candidate finder and the ranker read: heads and modifiers that make no concept alone."""

__all__ = ["GENERIC_HEADS", "UNNAMED_HEADS", "DISCOURSE_HEADS", "NAMING_HEADS", "COMPOUND_SUFFIXES", "GENERIC_MODIFIERS"]

# Heads that make no concept even when modified: evaluative and structural nouns ('an important role',
# 'a first-order concern', 'experimental results'), and compound heads that only make adjectives
# ('state-of-the-art').
UNNAMED_HEADS = frozenset(
    """concern issue way manner role part aspect kind type sort number lot amount degree extent fact
    case example instance order end thing point matter variety range deal advantage disadvantage benefit
    drawback challenge limitation need goal aim purpose interest insight light gain gains improvement
    improvements success progress effort efforts work works paper papers study studies result results
    finding findings experiment experiments performance baseline baselines option choice direction
    question questions idea ideas view perspective version variant variants practitioner researcher
    researchers community art state-of-the-art""".split()
)
# Unnamed heads that say what is done or thought about a thing, which the words before them name:
# 'privacy concerns', 'scaling law studies', 'the Lipschitz neural network way' (not 'saddle point').
DISCOURSE_HEADS = frozenset(
    """concern issue way manner role aspect effort work paper study result finding experiment performance
    perspective challenge limitation need goal aim purpose interest insight gain improvement success
    progress advantage disadvantage benefit drawback community researcher practitioner""".split()
)
# Heads that make no concept on their own: the unnamed ones, and these, which can end a name when
# modified ('treatment effect', 'learning rate', 'protein design'); the ranker weighs those.
GENERIC_HEADS = UNNAMED_HEADS | frozenset(
    """time level scale shot step stage term set series class family line body host piece attention
    evaluation evaluations analysis analyses method methods approach approaches technique techniques
    model models framework frameworks algorithm algorithms problem problems task tasks setting settings
    field area domain context scenario scenarios application applications use usage impact effect
    effects property properties behavior value values quality state cost costs rate factor factors
    component components solution solutions strategy strategies mechanism mechanisms procedure process
    system systems design designs tool tools module modules pipeline pipelines scheme schemes practice
    practices""".split()
)
# Generic heads that classes of named things end in ('world model', 'recommender system', 'attention
# mechanism'): a ranker feature of their own, apart from the other generic heads.
NAMING_HEADS = frozenset(
    """model models method methods algorithm algorithms framework frameworks system systems task tasks
    problem problems process mechanism mechanisms analysis estimation learning""".split()
)
# Last parts of hyphenated compounds whose stem is itself a concept: 'diffusion-based', 'LLM-driven'.
COMPOUND_SUFFIXES = frozenset(
    "based driven guided aware free conditioned informed augmented enhanced inspired powered specific centric oriented".split()
)
GENERIC_MODIFIERS = frozenset(
    """novel new existing various different proposed recent several many such previous prior current
    standard traditional conventional popular common significant important key main effective simple
    strong powerful general specific particular certain same other further additional extensive
    comprehensive large-scale wide broad promising remarkable impressive substantial superior competitive
    comparable better best good great high low higher lower small smaller larger extensive empirical
    theoretical practical real-world challenging crucial critical fundamental typical unified principled
    rigorous efficient lightweight robust scalable first second third initial final overall whole entire
    prevalent widespread emerging modern classical state-of-the-art sota numerous diverse multiple
    respective corresponding relevant underlying original fixed given arbitrary resulting desired
    flexible seamless severe limited realistic extra relative observed rich richer strict tight explicit
    tractable reliable accurate faithful fast faster slow slower easy hard difficult poor notable considerable
    appealing attractive desirable favorable consistent systematic careful detailed thorough natural
    following remaining ongoing increasing growing surrounding interesting upcoming
    based driven aware centric oriented powered""".split()  # the last: compound parts that never lead a name (unlike 'guided diffusion')
)
