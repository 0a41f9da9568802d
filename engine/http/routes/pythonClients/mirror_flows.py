"""The checks both stock clients' mirrored-market scripts make (mirror_v1.py, mirror_v2.py); every call on
`client` is the stock client's own. `trades(**params)` is the client's get_trades with its own TradeParams."""
from decimal import Decimal

from flows import ENV, MARKET, YES, ask, check, wait_for


def reads_match_public(client, public):
    """Tick size, neg-risk flag and base fee rate read by token id are the public market's."""
    for read in ("get_tick_size", "get_neg_risk", "get_fee_rate_bps"):
        local, remote = getattr(client, read)(YES), getattr(public, read)(YES)
        check(local == remote, f"{read}: {local!r} here, {remote!r} upstream")
    check(client.get_tick_size(YES) == MARKET["tickSize"] and client.get_neg_risk(YES) == MARKET["negRisk"], "the market's own tick and neg-risk")


def spread(book):
    """(best bid, best ask) of a book answer, either client's shape."""
    side = lambda name: [Decimal(l["price"] if isinstance(l, dict) else l.price) for l in (book[name] if isinstance(book, dict) else getattr(book, name))]  # noqa: E731,E741
    return max(side("bids")), min(side("asks"))


def filled_by_public_depth(trades, placed, best_ask):
    """The order matched at the best ask against the public depth; returns its trade id."""
    check(placed["success"] and placed["status"] == "matched", placed)
    trade = trades(id=placed["tradeIDs"][0])[0]
    check(trade["trader_side"] == "TAKER" and Decimal(trade["price"]) == best_ask, trade)
    check([m["maker_address"].lower() for m in trade["maker_orders"]] == [ENV["publicMarket"]], trade)
    return trade["id"]


def resting_filled_by_print(client, trades, book, place_buy, taken):
    """A buy resting one tick above the best bid stays live until the upstream prints at its price, then fills;
    the bot's history holds that trade (as maker) and the earlier one it took (`taken`)."""
    best_bid, best_ask = spread(book)
    price = best_bid + Decimal(MARKET["tickSize"])
    check(price < best_ask, f"{price} rests inside the spread {best_bid}..{best_ask}")
    resting = place_buy(float(price), 5)
    check(resting["status"] == "live", resting)
    check(client.get_order(resting["orderID"])["status"] == "LIVE", "nothing fills it before the print")
    ask(upstreamTrade={"conditionId": MARKET["conditionId"], "price": str(price), "size": "20"})
    filled = wait_for("the print to fill the resting order", lambda: (o := client.get_order(resting["orderID"]))["status"] == "MATCHED" and o)
    check(filled["size_matched"] == "5", filled)
    history = trades(market=MARKET["conditionId"])
    check(sorted(t["trader_side"] for t in history) == ["MAKER", "TAKER"], history)
    maker = next(t for t in history if t["trader_side"] == "MAKER")
    check(Decimal(maker["price"]) == price and [m["order_id"] for m in maker["maker_orders"]] == [resting["orderID"]], maker)
    check(any(t["id"] == taken for t in history), history)
