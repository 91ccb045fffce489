"""The room's tables in SQLAlchemy Core: one schema for SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

# An id column that autoincrements as INTEGER PRIMARY KEY on SQLite and BIGSERIAL on PostgreSQL.
_BigId = BigInteger().with_variant(Integer(), "sqlite")

accounts = Table(
    "accounts",
    metadata,
    Column("id", _BigId, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False, unique=True),
    # What makes two names one (stud.server.trust.names.name_key: no case, width or
    # look-alikes); filled for older rows when the schema is upgraded. Not unique: a
    # database made under an older rule may hold two names with one key.
    Column("name_key", String(128), nullable=True),
    Column("password_hash", String(255), nullable=True),
    # 'user', 'guest', 'bot' or 'house' (the bank chips are granted from and rake goes to).
    Column("kind", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    # The language the account chose for the browser client ('en', 'zh-Hant', ...); NULL: none.
    Column("language", String(16), nullable=True),
    # At a showdown, muck a hand that cannot win (on, the room's default) or show it.
    Column("muck_losing_hands", Boolean, nullable=False, server_default="1"),
    # Moderation (stud.server.storage.moderation): 'player', 'moderator' or 'admin'; a ban
    # (its reason set: banned; until NULL: for good) and a mute (chat refused until then).
    Column("role", String(16), nullable=False, server_default="player"),
    Column("banned_reason", Text, nullable=True),
    Column("banned_until", Float, nullable=True),
    Column("muted_until", Float, nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    # Only a hash of the cookie's token is stored, so a leaked database opens no session.
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

room_tables = Table(
    "room_tables",
    metadata,
    Column("id", _BigId, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("game", String(8), nullable=False),
    Column("ante", BigInteger, nullable=False),
    Column("bring_in", BigInteger, nullable=False),
    Column("small_bet", BigInteger, nullable=False),
    Column("big_bet", BigInteger, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("bots", Integer, nullable=False),
    Column("min_buy_in", BigInteger, nullable=False),
    Column("max_buy_in", BigInteger, nullable=False),
    Column("rake_percent", Float, nullable=False, server_default="0"),
    Column("rake_cap", BigInteger, nullable=True),
    Column("bot_kind", String(16), nullable=False, server_default="strong"),
    Column("created_by", ForeignKey("accounts.id"), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("closed", Boolean, nullable=False, default=False),
    # A tournament's table (stored closed, so it never opens as a cash table): its hands'
    # rows point here. NULL for a cash table.
    Column("tournament_id", BigInteger, nullable=True),
)

hands = Table(
    "hands",
    metadata,
    Column("id", _BigId, primary_key=True, autoincrement=True),
    Column("table_id", ForeignKey("room_tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("game", String(8), nullable=False),
    # 'running' until the hand's result is stored ('finished') or a restart voids it ('void').
    Column("status", String(16), nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("pot", BigInteger, nullable=False, default=0),
    Column("players", Text, nullable=False),  # JSON: [{"seat", "account_id", "name", "stack"}]
    Column("summary", Text, nullable=True),  # JSON: the result the clients were shown
    # The histories as written by earlier versions (the house's copies, every card in them).
    Column("phh", Text, nullable=True),
    Column("pokerstars", Text, nullable=True),
    # JSON: the hand as played (stud.history.played), from which its histories are written
    # when asked for (stud.server.http.histories). A row has this or the two texts above.
    Column("played", Text, nullable=True),
)
accounts_by_name_key = Index("accounts_by_name_key", accounts.c.name_key)

Index("hands_by_table", hands.c.table_id, hands.c.id)
Index("hands_by_status", hands.c.status)

hand_players = Table(
    "hand_players",
    metadata,
    Column("hand_id", ForeignKey("hands.id"), primary_key=True),
    Column("account_id", ForeignKey("accounts.id"), primary_key=True),
)
Index("hand_players_by_account", hand_players.c.account_id, hand_players.c.hand_id)

ledger = Table(
    "ledger",
    metadata,
    Column("id", _BigId, primary_key=True, autoincrement=True),
    # The entries of one movement share a txn; each txn's amounts sum to zero.
    Column("txn", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Column("account_id", ForeignKey("accounts.id"), nullable=False),
    # 'cash' (the balance), 'table' (chips in front of the player) or 'pot' (chips in a hand).
    Column("wallet", String(8), nullable=False),
    Column("table_id", BigInteger, nullable=True),
    Column("hand_id", BigInteger, nullable=True),
    # grant, buy_in, cash_out, commit, pot_won, rake, void_refund; t_buy_in, t_refund, t_prize
    Column("kind", String(16), nullable=False),
    Column("amount", BigInteger, nullable=False),
    # The tournament a t_* movement belongs to (the house's 'pool' wallet holds its prize pool).
    Column("tournament_id", BigInteger, nullable=True),
)
Index("ledger_by_wallet", ledger.c.account_id, ledger.c.wallet, ledger.c.table_id)
Index("ledger_by_hand", ledger.c.hand_id)
Index("ledger_by_tournament", ledger.c.tournament_id)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", _BigId, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("game", String(8), nullable=False),
    Column("kind", String(8), nullable=False),
    # registering, running, finished, cancelled: the snapshot's own state, for queries.
    Column("state", String(16), nullable=False),
    # JSON: stud.tournament.snapshot, stored in the transaction of each hand's result.
    Column("snapshot", Text, nullable=False),
    # Which of the room's default tournaments this one is (it reopens), or NULL.
    Column("template", String(32), nullable=True),
    Column("created_by", ForeignKey("accounts.id"), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)
Index("tournaments_by_state", tournaments.c.state)

# -- the operator's desk (stud.server.storage.moderation) ------------------------------------

audit = Table(
    "audit",
    metadata,
    Column("id", _BigId, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    # Who did it: an account (the admin page) or NULL with ``actor`` naming the console user.
    Column("actor_id", BigInteger, nullable=True),
    Column("actor", String(128), nullable=False),
    # make_admin, make_moderator, make_player, grant, ban, unban, mute, unmute, close_table,
    # cancel_tournament, resolve_report
    Column("action", String(32), nullable=False),
    Column("target", String(128), nullable=False),
    Column("reason", Text, nullable=False),
    Column("detail", Text, nullable=True),  # JSON: the amount, the until, the outcome
)
Index("audit_by_at", audit.c.at)

reports = Table(
    "reports",
    metadata,
    Column("id", _BigId, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("reporter_id", ForeignKey("accounts.id"), nullable=False),
    Column("account_id", ForeignKey("accounts.id"), nullable=False),  # who is reported
    Column("table_key", String(32), nullable=False),  # '12' or a tournament's table 't7.2'
    Column("line", Text, nullable=True),  # the chat line reported (None: the player)
    Column("reason", Text, nullable=False),
    Column("context", Text, nullable=False),  # JSON: the table's last chat lines
    Column("resolved_at", Float, nullable=True),
)
Index("reports_open", reports.c.resolved_at)

admin_queue = Table(
    "admin_queue",
    metadata,
    # What ``stud admin`` asks of a running room: close_table, cancel_tournament, vacate.
    Column("id", _BigId, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("action", String(32), nullable=False),
    Column("target", BigInteger, nullable=False),
    Column("audit_id", BigInteger, nullable=True),
    Column("done_at", Float, nullable=True),
    Column("result", Text, nullable=True),  # JSON: what the room did, or its refusal
)
Index("admin_queue_pending", admin_queue.c.done_at)

top_ups = Table(
    "top_ups",
    metadata,
    # Free play chips given to an account that ran low (stud.server.storage.topups): when,
    # how many, what it held then, and why; its ledger rows share the txn (kind 'top_up').
    Column("id", _BigId, primary_key=True, autoincrement=True),
    Column("account_id", ForeignKey("accounts.id"), nullable=False),
    Column("txn", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("held", BigInteger, nullable=False),
    Column("reason", String(200), nullable=False),
)
Index("top_ups_by_account", top_ups.c.account_id, top_ups.c.at)

imported_hands = Table(
    "imported_hands",
    metadata,
    Column("id", _BigId, primary_key=True, autoincrement=True),
    # The account that uploaded the hand: the only one that ever sees it (stud.server.http.imports).
    Column("account_id", ForeignKey("accounts.id"), nullable=False),
    Column("site", String(16), nullable=False),  # 'pokerstars'
    # The site's hand number (or, without one, a hash of the hand): a hand is imported once.
    Column("site_hand_id", String(80), nullable=False),
    Column("game", String(8), nullable=False),
    # The time the file gives, as its text: '2009-11-26 10:08:43 ET'.
    Column("played_at", String(32), nullable=True),
    Column("imported_at", Float, nullable=False),
    Column("file_name", String(255), nullable=True),
    Column("table_name", String(64), nullable=True),
    # The uploader's seat in the hand (its record seat index, 0..n-1), name and result in the
    # hand's units (cents for a cash game: ``decimals``); NULL when the file shows no hero.
    Column("hero", Integer, nullable=True),
    Column("hero_name", String(64), nullable=True),
    Column("hero_net", BigInteger, nullable=True),
    Column("pot", BigInteger, nullable=False),
    Column("decimals", Integer, nullable=False),
    Column("currency", String(8), nullable=True),
    # The hand as read, in the project's own history format (PHH text, every card the file
    # showed): what the replay, the equity and the stats read.
    Column("phh", Text, nullable=False),
)
Index(
    "imported_hands_by_site_id",
    imported_hands.c.account_id,
    imported_hands.c.site,
    imported_hands.c.site_hand_id,
    unique=True,
)

# What each seat with an account did in each finished hand (stud.server.storage.facts): a
# player's stats are sums over these rows (stud.server.storage.stats). ``source`` is
# 'room' (``hand_id`` a row of ``hands``) or another store of hands, such as imported ones,
# whose rows only their own account has. Keyed by account first: a player's rows are one
# range, and another player's shared hands one lookup each (without a rowid on SQLite, the
# rows sit in the key's order).
hand_facts = Table(
    "hand_facts",
    metadata,
    Column("account_id", BigInteger, primary_key=True),
    Column("source", String(8), primary_key=True),
    Column("hand_id", BigInteger, primary_key=True),
    Column("game", String(8), nullable=False),
    Column("at", Float, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("vpip", Integer, nullable=False),
    Column("raised", Integer, nullable=False),
    Column("steal_chance", Integer, nullable=False),
    Column("stole", Integer, nullable=False),
    Column("fold4_chance", Integer, nullable=False),
    Column("folded4", Integer, nullable=False),
    Column("saw4", Integer, nullable=False),
    Column("showdown", Integer, nullable=False),
    Column("won_showdown", Integer, nullable=False),
    Column("net", BigInteger, nullable=False),
    sqlite_with_rowid=False,
)

# A player's notes on another account, seen by nobody else (stud.server.storage.notes).
player_notes = Table(
    "player_notes",
    metadata,
    Column("owner_id", ForeignKey("accounts.id"), primary_key=True),
    Column("account_id", ForeignKey("accounts.id"), primary_key=True),
    Column("text", Text, nullable=False),
    Column("color", String(16), nullable=False),
    Column("updated_at", Float, nullable=False),
)

_FLAG_SUMS: tuple[str, ...] = ("vpip", "raised", "steal_chance", "stole", "fold4_chance")
_FLAG_SUMS += ("folded4", "saw4", "showdown", "won_showdown")
"""The flags of stud.server.storage.facts.FLAGS, summed."""

# An account's own facts summed by money, game and stretch of time
# (stud.server.storage.stats): its stats and results by session are read from a few hundred
# of these rows, not from every hand's. ``unit`` is what ``net`` counts: 'chips' (the room's)
# or an imported hand's ('USD' and other currencies in cents, 'tourney' chips, 'play' money),
# never summed together. Kept in the transaction that stores the facts; a stretch is shorter
# than the gap that ends a session, so no session ends inside one.
player_rollup = Table(
    "player_rollup",
    metadata,
    Column("account_id", BigInteger, primary_key=True),
    Column("unit", String(16), primary_key=True),
    Column("stretch", BigInteger, primary_key=True),
    Column("game", String(8), primary_key=True),
    Column("start", Float, nullable=False),
    Column("end", Float, nullable=False),
    Column("hands", BigInteger, nullable=False),
    *(Column(flag, BigInteger, nullable=False) for flag in _FLAG_SUMS),
    Column("net", BigInteger, nullable=False),
)
