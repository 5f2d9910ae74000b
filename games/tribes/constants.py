"""Tribes tables: terrain, resources, buildings, units and the technology tree.

Facts from the public Tribes framework (GAIGResearch/Tribes, ``src/core/Types.java``
and ``TribesConfig.java``); the numbers below are the framework's, the encoding
(small integers for fast flat arrays) is ours.
"""

from __future__ import annotations

# ---- terrain -----------------------------------------------------------------------------
PLAIN, SHALLOW, DEEP, MOUNTAIN, VILLAGE, CITY, FOREST = range(7)
TERRAIN_NAMES = ("plain", "shallow", "deep", "mountain", "village", "city", "forest")
TERRAIN_CHARS = ".sdmvcf"
WATER = (SHALLOW, DEEP)

# ---- resources (0 = none) ----------------------------------------------------------------
NO_RES, FISH, FRUIT, ANIMAL, WHALES, ORE, CROPS, RUINS = range(8)
RESOURCE_NAMES = ("-", "fish", "fruit", "animal", "whales", "ore", "crops", "ruins")

# ---- technologies (the 24 of Types.TECHNOLOGY, in its order) -------------------------------
(CLIMBING, FISHING, HUNTING, ORGANIZATION, RIDING, ARCHERY, FARMING, FORESTRY, FREE_SPIRIT,
 MEDITATION, MINING, ROADS, SAILING, SHIELDS, WHALING, AQUATISM, CHIVALRY, CONSTRUCTION,
 MATHEMATICS, NAVIGATION, SMITHERY, SPIRITUALISM, TRADE, PHILOSOPHY) = range(24)
NUM_TECHS = 24
TECH_NAMES = ("climbing", "fishing", "hunting", "organization", "riding", "archery", "farming",
              "forestry", "free_spirit", "meditation", "mining", "roads", "sailing", "shields",
              "whaling", "aquatism", "chivalry", "construction", "mathematics", "navigation",
              "smithery", "spiritualism", "trade", "philosophy")
TECH_PARENT = {
    ARCHERY: HUNTING, FORESTRY: HUNTING, SPIRITUALISM: ARCHERY, MATHEMATICS: FORESTRY,
    FARMING: ORGANIZATION, SHIELDS: ORGANIZATION, CONSTRUCTION: FARMING,
    MEDITATION: CLIMBING, MINING: CLIMBING, PHILOSOPHY: MEDITATION, SMITHERY: MINING,
    SAILING: FISHING, WHALING: FISHING, NAVIGATION: SAILING, AQUATISM: WHALING,
    ROADS: RIDING, FREE_SPIRIT: RIDING, TRADE: ROADS, CHIVALRY: FREE_SPIRIT,
}
TECH_TIER = tuple(1 if t not in TECH_PARENT else (2 if TECH_PARENT[t] not in TECH_PARENT else 3)
                  for t in range(NUM_TECHS))
TECH_BASE_COST = 4
TECH_DISCOUNT = 0.2  # with Philosophy researched
ALL_TECHS = (1 << NUM_TECHS) - 1
# Branches of the tree (seed 002 Table III research scripts σ15..σ19), lowest tier first.
TECH_BRANCHES = {
    "farms": (ORGANIZATION, FARMING, SHIELDS, CONSTRUCTION),
    "naval": (FISHING, SAILING, WHALING, NAVIGATION, AQUATISM),
    "mountain": (CLIMBING, MINING, MEDITATION, SMITHERY, PHILOSOPHY),
    "range": (HUNTING, ARCHERY, FORESTRY, SPIRITUALISM, MATHEMATICS),
    "roads": (RIDING, ROADS, FREE_SPIRIT, TRADE, CHIVALRY),
}

# ---- tribes: (name, initial technology, starting unit) -----------------------------------
WARRIOR, RIDER, DEFENDER, SWORDMAN, ARCHER, CATAPULT, KNIGHT, MIND_BENDER, BOAT, SHIP, \
    BATTLESHIP, SUPERUNIT = range(12)
TRIBES = (("Xin-Xi", CLIMBING, WARRIOR), ("Imperius", ORGANIZATION, WARRIOR),
          ("Bardur", HUNTING, WARRIOR), ("Oumaji", RIDING, RIDER))

# ---- units: attack, defence, movement, max hp, range, cost, points, required tech ---------
UNIT_NAMES = ("warrior", "rider", "defender", "swordman", "archer", "catapult", "knight",
              "mind_bender", "boat", "ship", "battleship", "superunit")
UNIT_ATK = (2, 2, 1, 3, 2, 4, 4, 0, 1, 2, 4, 5)
UNIT_DEF = (2, 1, 3, 3, 1, 0, 1, 1, 1, 2, 3, 4)
UNIT_MOV = (1, 2, 1, 1, 1, 1, 3, 1, 2, 3, 3, 1)
UNIT_HP = (10, 10, 15, 15, 10, 10, 15, 10, 0, 0, 0, 40)  # naval units carry their crew's hp
UNIT_RANGE = (1, 1, 1, 1, 2, 3, 1, 1, 2, 2, 2, 1)
UNIT_COST = (2, 3, 3, 5, 3, 8, 8, 5, 0, 5, 15, 10)
UNIT_POINTS = (10, 15, 15, 25, 15, 40, 40, 25, 0, 0, 0, 50)
UNIT_TECH = (-1, RIDING, SHIELDS, SMITHERY, ARCHERY, MATHEMATICS, CHIVALRY, PHILOSOPHY,
             SAILING, SAILING, NAVIGATION, -1)
SPAWNABLE = (WARRIOR, RIDER, DEFENDER, SWORDMAN, ARCHER, CATAPULT, KNIGHT, MIND_BENDER)
NAVAL = (BOAT, SHIP, BATTLESHIP)
MELEE = (WARRIOR, RIDER, DEFENDER, SWORDMAN, KNIGHT, SUPERUNIT)  # move in after a kill
ATTACK_MODIFIER = 4.5
DEFENCE_BONUS = 1.5
DEFENCE_IN_WALLS = 4.0
VETERAN_KILLS = 3
VETERAN_PLUS_HP = 5
RECOVER_PLUS_HP = 2
RECOVER_IN_BORDERS_PLUS_HP = 2
MINDBENDER_HEAL = 4
EXPLORER_STEPS = 15

# unit turn status (Types.TURN_STATUS; the framework's order differs, the meaning is its)
FRESH, MOVED, ATTACKED, FINISHED, MOVED_AND_ATTACKED, PUSHED = 0, 1, 2, 3, 4, 5
# Unit abilities as the framework's ``Unit.canTransitionTo`` / ``transitionToStatus`` set
# them: move or attack, not both (defender, catapult, mind bender); dash, attack after
# moving (warrior, swordsman, archer, boats, ships, battleships, superunit); escape, move
# again after attacking (rider); persist, attack again after a kill (knight).
ONE_ACTION_UNITS = (DEFENDER, CATAPULT, MIND_BENDER)
DASH_UNITS = (WARRIOR, SWORDMAN, ARCHER, BOAT, SHIP, BATTLESHIP, SUPERUNIT)

# ---- buildings (0 = none) ----------------------------------------------------------------
(NO_BUILDING, PORT, MINE, FORGE, FARM, WINDMILL, CUSTOM_HOUSE, LUMBER_HUT, SAWMILL, TEMPLE,
 WATER_TEMPLE, FOREST_TEMPLE, MOUNTAIN_TEMPLE, ALTAR_OF_PEACE, EMPERORS_TOMB, EYE_OF_GOD,
 GATE_OF_POWER, GRAND_BAZAR, PARK_OF_FORTUNE, TOWER_OF_WISDOM) = range(20)
BUILDING_NAMES = ("-", "port", "mine", "forge", "farm", "windmill", "custom_house", "lumber_hut",
                  "sawmill", "temple", "water_temple", "forest_temple", "mountain_temple",
                  "altar_of_peace", "emperors_tomb", "eye_of_god", "gate_of_power",
                  "grand_bazar", "park_of_fortune", "tower_of_wisdom")
MONUMENTS = tuple(range(ALTAR_OF_PEACE, TOWER_OF_WISDOM + 1))
TEMPLES = (TEMPLE, WATER_TEMPLE, FOREST_TEMPLE, MOUNTAIN_TEMPLE)
UNIQUE_PER_CITY = (WINDMILL, CUSTOM_HOUSE, SAWMILL, FORGE)
BUILDING_COST = {PORT: 10, MINE: 5, FORGE: 5, FARM: 5, WINDMILL: 5, CUSTOM_HOUSE: 5,
                 LUMBER_HUT: 2, SAWMILL: 5, TEMPLE: 20, WATER_TEMPLE: 20, FOREST_TEMPLE: 15,
                 MOUNTAIN_TEMPLE: 20, **{m: 0 for m in MONUMENTS}}
BUILDING_TECH = {PORT: SAILING, MINE: MINING, FORGE: SMITHERY, FARM: FARMING,
                 WINDMILL: CONSTRUCTION, CUSTOM_HOUSE: TRADE, LUMBER_HUT: FORESTRY,
                 SAWMILL: MATHEMATICS, TEMPLE: FREE_SPIRIT, WATER_TEMPLE: AQUATISM,
                 FOREST_TEMPLE: SPIRITUALISM, MOUNTAIN_TEMPLE: MEDITATION,
                 ALTAR_OF_PEACE: MEDITATION, EMPERORS_TOMB: TRADE, EYE_OF_GOD: NAVIGATION,
                 GATE_OF_POWER: -1, GRAND_BAZAR: ROADS, PARK_OF_FORTUNE: -1,
                 TOWER_OF_WISDOM: PHILOSOPHY}
BUILDING_TERRAIN = {PORT: (SHALLOW,), MINE: (MOUNTAIN,), FORGE: (PLAIN,), FARM: (PLAIN,),
                    WINDMILL: (PLAIN,), CUSTOM_HOUSE: (PLAIN,), LUMBER_HUT: (FOREST,),
                    SAWMILL: (PLAIN,), TEMPLE: (PLAIN,), WATER_TEMPLE: (SHALLOW, DEEP),
                    FOREST_TEMPLE: (FOREST,), MOUNTAIN_TEMPLE: (MOUNTAIN,),
                    **{m: (SHALLOW, PLAIN) for m in MONUMENTS}}
BUILDING_RESOURCE = {FARM: CROPS, MINE: ORE}
# Population a building gives its city on its own (ports, farms, mines, lumber huts, temples,
# monuments); windmills/sawmills/forges give per neighbouring farm/lumber hut/mine and custom
# houses production per neighbouring port (City.java).
BUILDING_POP = {PORT: 2, MINE: 2, FARM: 2, LUMBER_HUT: 1, TEMPLE: 1, WATER_TEMPLE: 1,
                FOREST_TEMPLE: 1, MOUNTAIN_TEMPLE: 1, **{m: 3 for m in MONUMENTS}}
# (producer, booster, per-neighbour bonus, bonus is production rather than population)
BOOSTS = {FARM: (WINDMILL, 1, False), LUMBER_HUT: (SAWMILL, 1, False), MINE: (FORGE, 2, False),
          PORT: (CUSTOM_HOUSE, 2, True)}
BOOSTED_BY = {booster: (producer, bonus, prod) for producer, (booster, bonus, prod)
              in BOOSTS.items()}
TEMPLE_POINTS = 100
TEMPLE_LEVEL_POINTS = (100, 50, 50, 50, 150)
"""Points of a temple's levels 1..5 (TribesConfig.TEMPLE_POINTS): level 1 when built, one
more level every TEMPLE_TURNS_TO_SCORE turns of its owner up to level 5 (Temple.newTurn)."""
TEMPLE_TURNS_TO_SCORE = 3
TEMPLE_MAX_LEVEL = 5
PORT_TRADE_DISTANCE = 4
"""Two ports of a tribe are linked in its trade network when at most this many steps over
water it has explored and no enemy owns join them, the last step onto the other port
(TribesConfig.PORT_TRADE_DISTANCE; TradeNetwork.TradeWaterStep)."""
MONUMENT_POINTS = 400
EMPERORS_TOMB_STARS = 100
GATE_OF_POWER_KILLS = 10
GRAND_BAZAR_CITIES = 5
ALTAR_OF_PEACE_TURNS = 5
PARK_OF_FORTUNE_LEVEL = 5

# ---- resources gathering: resource -> (technology, stars cost, population, stars gained) --
GATHER = {FISH: (FISHING, 2, 1, 0), FRUIT: (ORGANIZATION, 2, 1, 0), ANIMAL: (HUNTING, 2, 1, 0),
          WHALES: (WHALING, 0, 0, 10)}

# ---- city level-up bonuses (Types.CITY_LEVEL_UP) ------------------------------------------
WORKSHOP, EXPLORER, CITY_WALL, RESOURCES, POP_GROWTH, BORDER_GROWTH, PARK, SUPER = range(8)
LEVEL_UP_NAMES = ("workshop", "explorer", "city_wall", "resources", "pop_growth",
                  "border_growth", "park", "superunit")
LEVEL_UP_LEVEL = (2, 2, 3, 3, 4, 4, 5, 5)
CITY_LEVEL_UP_WORKSHOP_PROD = 1
CITY_LEVEL_UP_RESOURCES = 5
CITY_LEVEL_UP_POP_GROWTH = 3
CITY_LEVEL_UP_PARK = 250
PROD_CAPITAL_BONUS = 1
POINTS_PER_POPULATION = 5
CLEAR_VIEW_POINTS = 5
TECH_TIER_POINTS = 100
"""Rules version 4: researching a technology scores 100 × its tier (``ResearchTechCommand``),
a tribe's initial technology too (``Tribe.init``)."""
CITY_CENTRE_POINTS = 100
"""Rules version 4: a capital, and a village captured, score this (``LevelLoader``,
``Board.capture``)."""
CITY_BORDER_POINTS = 20
"""Rules version 4: each tile a city claims scores this for its tribe and adds it to the
city's worth (``Board.assignCityTiles``)."""
FIRST_CITY_CLEAR_RANGE = 2


def level_up_options(level: int) -> tuple[int, int]:
    """The two bonuses a city of ``level`` chooses between when it levels up."""
    if level == 1:
        return WORKSHOP, EXPLORER
    if level == 2:
        return CITY_WALL, RESOURCES
    if level == 3:
        return POP_GROWTH, BORDER_GROWTH
    return PARK, SUPER


def level_up_points(bonus: int) -> int:
    """CITY_LEVEL_UP.getLevelUpPoints: 100 at level 1, else 50 − 5·level."""
    level = LEVEL_UP_LEVEL[bonus]
    return 100 if level == 1 else 50 - level * 5


# ---- other actions ------------------------------------------------------------------------
ROAD_COST = 2
CLEAR_FOREST_STARS = 2
GROW_FOREST_COST = 5
BURN_FOREST_COST = 5
INITIAL_STARS = 5
TURN_LIMIT = 50

# ---- action type codes (seed 002 Table III) -----------------------------------------------
(END_TURN, RESEARCH, BUILD_ROAD, BUILD, SPAWN, LEVEL_UP, RESOURCE, BURN_FOREST, CLEAR_FOREST,
 GROW_FOREST, DESTROY, MOVE, ATTACK, CAPTURE, RECOVER, EXAMINE, HEAL_OTHERS, UPGRADE,
 MAKE_VETERAN, CONVERT, DISBAND) = range(21)
# the framework's two diplomacy actions, rules version 4 only: (DECLARE_WAR,), (SEND_STARS, n)
DECLARE_WAR, SEND_STARS = 21, 22
ACTION_NAMES = ("end_turn", "research", "build_road", "build", "spawn", "level_up", "resource",
                "burn_forest", "clear_forest", "grow_forest", "destroy", "move", "attack",
                "capture", "recover", "examine", "heal_others", "upgrade", "make_veteran",
                "convert", "disband", "declare_war", "send_stars")

# ---- diplomacy (rules version 4; TribesConfig, Diplomacy.java) -----------------------------
ALLEGIANCE_MAX = 60
ATTACK_REPERCUSSION = -5
CAPTURE_REPERCUSSION = -30
CONVERT_REPERCUSSION = -5
MIN_STARS_SEND = 15
"""A tribe sends 1 .. min(stars, 15) − 1 stars at a time (``SendStarsFactory``)."""
MAX_STARS_SENT = 30
"""No more sending once 30 were sent in the turn (``Tribe.canSendStars``)."""
