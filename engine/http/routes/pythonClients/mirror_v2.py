"""py-clob-client-v2, unmodified, trades a mirrored public market by its public token id (issue 22 item 3).

The market's tick size, neg-risk flag and fee details are left to the client to read (no options are passed).
"""
from py_clob_client_v2 import ClobClient, MarketOrderArgsV2, OrderArgsV2, OrderType, TradeParams

from flows import ENV, HOST, MARKET, YES, check, flow
from mirror_flows import filled_by_public_depth, reads_match_public, resting_filled_by_print, spread

key = ENV["keys"]["ida"]
state = {}


def trades(**params):
    return state["bot"].get_trades(TradeParams(**params))


@flow("reads the mirrored market by its public token id: tick size, neg-risk and fee details are the public market's")
def _():
    state["bot"] = c = ClobClient(HOST, 137, key=key, creds=ClobClient(HOST, 137, key=key).create_or_derive_api_key())
    public = ClobClient(ENV["upstream"], 137)
    reads_match_public(c, public)
    local, remote = c.get_clob_market_info(MARKET["conditionId"]), public.get_clob_market_info(MARKET["conditionId"])
    check([local.get(k) for k in ("mts", "nr", "fd", "t")] == [remote.get(k) for k in ("mts", "nr", "fd", "t")], (local, remote))


@flow("a marketable FOK buy, priced by the client from the mirrored book, fills against the public depth: the maker is public-market")
def _():
    _, best_ask = spread(state["bot"].get_order_book(YES))
    placed = state["bot"].create_and_post_market_order(MarketOrderArgsV2(token_id=YES, amount=3, side="BUY"), None, OrderType.FOK)
    state["taken"] = filled_by_public_depth(trades, placed, best_ask)


@flow("a resting limit buy fills when the public market prints at its price; both trades are in the bot's history")
def _():
    c = state["bot"]
    place_buy = lambda price, size: c.create_and_post_order(OrderArgsV2(token_id=YES, price=price, size=size, side="BUY"))  # noqa: E731
    resting_filled_by_print(c, trades, c.get_order_book(YES), place_buy, state["taken"])
