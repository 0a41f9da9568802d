"""py-clob-client (V1), unmodified, trades a mirrored public market by its public token id (issue 22 item 3).

The market's tick size, neg-risk flag and fee rate are left to the client to read (no options are passed).
"""
from py_clob_client.client import ClobClient
from py_clob_client.clob_types import OrderArgs, TradeParams
from py_clob_client.order_builder.constants import BUY

from flows import ENV, HOST, YES, flow
from mirror_flows import filled_by_public_depth, reads_match_public, resting_filled_by_print, spread

key = ENV["keys"]["henry"]
state = {}


def trades(**params):
    return state["bot"].get_trades(TradeParams(**params))


@flow("reads the mirrored market by its public token id: tick size, neg-risk and fee rate are the public market's")
def _():
    state["bot"] = ClobClient(HOST, chain_id=137, key=key, creds=ClobClient(HOST, chain_id=137, key=key).create_or_derive_api_creds())
    reads_match_public(state["bot"], ClobClient(ENV["upstream"], chain_id=137))


@flow("a marketable buy at the best ask fills against the public depth: the maker is public-market")
def _():
    _, best_ask = spread(state["bot"].get_order_book(YES))
    placed = state["bot"].create_and_post_order(OrderArgs(token_id=YES, price=float(best_ask), size=5, side=BUY))
    state["taken"] = filled_by_public_depth(trades, placed, best_ask)


@flow("a resting limit buy fills when the public market prints at its price; both trades are in the bot's history")
def _():
    c = state["bot"]
    place_buy = lambda price, size: c.create_and_post_order(OrderArgs(token_id=YES, price=price, size=size, side=BUY))  # noqa: E731
    resting_filled_by_print(c, trades, c.get_order_book(YES), place_buy, state["taken"])
