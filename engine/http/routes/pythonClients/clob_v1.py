"""py-clob-client (V1), unmodified, against an engine in the polymarket profile."""
import time

from py_clob_client.client import ClobClient
from py_clob_client.clob_types import (
    ApiCreds,
    AssetType,
    BalanceAllowanceParams,
    BookParams,
    MarketOrderArgs,
    OpenOrderParams,
    OrderArgs,
    OrderScoringParams,
    OrderType,
    PartialCreateOrderOptions,
    PostOrdersArgs,
    TradeParams,
)
from py_clob_client.order_builder.constants import BUY, SELL

from flows import ENV, HOST, MARKET, NO, YES, check, flow, raises
from price_reads import check_price_reads

OPTS = PartialCreateOrderOptions(tick_size="0.01", neg_risk=False)
state = {}


@flow("credentials: create, derive, create_or_derive twice in one second, two clients in one second, nonce slots")
def _():
    l1 = ClobClient(HOST, chain_id=137, key=ENV["keys"]["alice"])
    created = l1.create_api_key()
    check(len(created.api_key) == 36, created)
    derived = l1.derive_api_key()
    check(derived == created, f"derive {derived} != create {created}")
    again = [l1.create_or_derive_api_creds(), l1.create_or_derive_api_creds()]
    check(all(c == created for c in again), again)
    other = ClobClient(HOST, chain_id=137, key=ENV["keys"]["alice"]).create_or_derive_api_creds()
    check(other == created, other)
    seven = l1.create_api_key(7)
    check(seven.api_key != created.api_key and l1.derive_api_key(7) == seven, seven)
    state["alice"] = ClobClient(HOST, chain_id=137, key=ENV["keys"]["alice"], creds=created)
    keys = state["alice"].get_api_keys()
    check(sorted(keys["apiKeys"]) == sorted([created.api_key, seven.api_key]), keys)
    bob = ClobClient(HOST, chain_id=137, key=ENV["keys"]["bob"])
    state["bob"] = ClobClient(HOST, chain_id=137, key=ENV["keys"]["bob"], creds=bob.create_or_derive_api_creds())


@flow("GTC order rests: create_and_post_order answers success, get_order and get_orders read it")
def _():
    a = state["alice"]
    placed = a.create_and_post_order(OrderArgs(token_id=YES, price=0.40, size=10, side=BUY), OPTS)
    check(placed["success"] and placed["status"] == "live", placed)
    order = a.get_order(placed["orderID"])
    check(order["status"] == "LIVE" and order["outcome"] == "Yes" and order["original_size"] == "10", order)
    check([o["id"] for o in a.get_orders(OpenOrderParams(market=MARKET["conditionId"]))] == [placed["orderID"]], "open orders")
    check(a.is_order_scoring(OrderScoringParams(orderId=placed["orderID"])) == {"scoring": False}, "scoring")
    state["resting"] = placed["orderID"]


@flow("a crossing GTC order fills: matched, amounts, trade ids; get_trades lists it for both sides")
def _():
    taken = state["bob"].create_and_post_order(OrderArgs(token_id=NO, price=0.60, size=6, side=BUY), OPTS)
    check(taken["success"] and taken["status"] == "matched", taken)
    check((taken["makingAmount"], taken["takingAmount"]) == ("3.6", "6") and len(taken["tradeIDs"]) == 1, taken)
    trades = state["bob"].get_trades(TradeParams(market=MARKET["conditionId"]))
    check([t["id"] for t in trades] == taken["tradeIDs"], trades)
    maker = state["alice"].get_trades(TradeParams(id=taken["tradeIDs"][0]))
    check(maker[0]["maker_orders"][0]["order_id"] == state["resting"], maker)
    check(state["alice"].get_order(state["resting"])["size_matched"] == "6", "size matched")


@flow("public reads: ok, time, markets, book, prices, midpoints, spreads, tick size, neg risk, fee rate, last trade")
def _():
    c = ClobClient(HOST, chain_id=137)
    # A bid (BUY YES 0.30) and an ask (BUY NO 0.60 is an ask of YES at 0.40), so every price read has a book.
    bid = state["alice"].create_and_post_order(OrderArgs(token_id=YES, price=0.30, size=5, side=BUY), OPTS)["orderID"]
    ask = state["bob"].create_and_post_order(OrderArgs(token_id=NO, price=0.60, size=5, side=BUY), OPTS)["orderID"]
    check(c.get_ok() == "OK", c.get_ok())
    check(abs(int(c.get_server_time()) - time.time()) < 60, c.get_server_time())
    check(any(m["condition_id"] == MARKET["conditionId"] for m in c.get_markets()["data"]), "market listed")
    check(c.get_market(MARKET["conditionId"])["condition_id"] == MARKET["conditionId"], "get_market")
    check(c.get_simplified_markets()["data"] is not None, "simplified")
    check(c.get_sampling_markets()["data"] is not None, "sampling")
    book = c.get_order_book(YES)
    check(book.asset_id == YES and book.tick_size == "0.01", book)
    check(len(c.get_order_book_hash(book)) == 40, "hash")
    check(len(c.get_order_books([BookParams(token_id=YES), BookParams(token_id=NO)])) == 2, "books")
    check(c.get_tick_size(YES) == "0.01", "tick")
    check(c.get_neg_risk(YES) is False, "neg risk")
    check(isinstance(c.get_fee_rate_bps(YES), int), "fee rate")
    check_price_reads(c, BookParams)
    check(isinstance(c.get_last_trades_prices([BookParams(token_id=YES)]), list), "last trades prices")
    check(c.get_midpoint(YES) == {"mid": "0.35"}, c.get_midpoint(YES))
    state["alice"].cancel(bid)
    state["bob"].cancel(ask)


@flow("GTD order: its expiration is kept; one expiring too soon is refused with the client's exception")
def _():
    a = state["alice"]
    expiration = int(time.time()) + 3600
    placed = a.post_order(a.create_order(OrderArgs(token_id=YES, price=0.15, size=5, side=BUY, expiration=expiration), OPTS), OrderType.GTD)
    check(placed["status"] == "live", placed)
    check(a.get_order(placed["orderID"])["expiration"] == str(expiration), "expiration")
    soon = a.create_order(OrderArgs(token_id=YES, price=0.15, size=5, side=BUY, expiration=int(time.time()) + 30), OPTS)
    raises(lambda: a.post_order(soon, OrderType.GTD), status=400, contains="INVALID_ORDER_EXPIRATION")
    a.cancel(placed["orderID"])


@flow("FOK market order fills in full; an unfillable FOK is refused")
def _():
    a, b = state["alice"], state["bob"]
    rest = b.create_and_post_order(OrderArgs(token_id=NO, price=0.70, size=10, side=BUY), OPTS)
    check(rest["status"] == "live", rest)
    fok = a.post_order(a.create_market_order(MarketOrderArgs(token_id=YES, amount=3, side=BUY, price=0.30), OPTS), OrderType.FOK)
    check(fok["success"] and fok["status"] == "matched" and fok["takingAmount"] == "10", fok)
    killed = a.create_market_order(MarketOrderArgs(token_id=YES, amount=3, side=BUY, price=0.30), OPTS)
    raises(lambda: a.post_order(killed, OrderType.FOK), status=400, contains="FOK_ORDER_NOT_FILLED_ERROR")


@flow("FAK market order fills what it can and cancels the rest")
def _():
    a, b = state["alice"], state["bob"]
    rest = b.create_and_post_order(OrderArgs(token_id=NO, price=0.75, size=5, side=BUY), OPTS)
    check(rest["status"] == "live", rest)
    fak = a.post_order(a.create_market_order(MarketOrderArgs(token_id=YES, amount=5, side=BUY, price=0.25), OPTS), OrderType.FAK)
    check(fak["success"] and fak["takingAmount"] == "5", fak)
    check(a.get_orders(OpenOrderParams(asset_id=YES, id=fak["orderID"])) == [], "nothing rests")


@flow("SELL of held shares rests and is cancelled")
def _():
    a = state["alice"]
    sell = a.create_and_post_order(OrderArgs(token_id=YES, price=0.95, size=5, side=SELL), OPTS)
    check(sell["status"] == "live", sell)
    check(a.cancel(sell["orderID"])["canceled"] == [sell["orderID"]], "cancel sell")


@flow("post_orders places a batch: one fills, one rests")
def _():
    a, b = state["alice"], state["bob"]
    rest = b.create_and_post_order(OrderArgs(token_id=NO, price=0.50, size=5, side=BUY), OPTS)
    check(rest["status"] == "live", rest)
    results = a.post_orders([
        PostOrdersArgs(order=a.create_order(OrderArgs(token_id=YES, price=0.50, size=5, side=BUY), OPTS), orderType=OrderType.GTC),
        PostOrdersArgs(order=a.create_order(OrderArgs(token_id=YES, price=0.11, size=5, side=BUY), OPTS), orderType=OrderType.GTC),
    ])
    check([r["status"] for r in results] == ["matched", "live"], results)
    a.cancel(results[1]["orderID"])


@flow("every cancel: cancel, cancel_orders, cancel_market_orders by market and by asset, cancel_all")
def _():
    a = state["alice"]
    place = lambda price: a.create_and_post_order(OrderArgs(token_id=YES, price=price, size=5, side=BUY), OPTS)["orderID"]  # noqa: E731
    one = place(0.10)
    check(a.cancel(one) == {"canceled": [one], "not_canceled": {}}, "cancel")
    check(a.get_order(one)["status"] == "CANCELED", "status")
    two = [place(0.11), place(0.12)]
    check(sorted(a.cancel_orders(two)["canceled"]) == sorted(two), "cancel_orders")
    by_market = place(0.13)
    check(a.cancel_market_orders(market=MARKET["conditionId"])["canceled"] == [by_market], "by market")
    by_asset = place(0.14)
    check(a.cancel_market_orders(asset_id=YES)["canceled"] == [by_asset], "by asset")
    place(0.15)
    check(len(a.cancel_all()["canceled"]) >= 1, "cancel_all")
    check(a.get_orders() == [], "nothing open")


@flow("balances: collateral and conditional balance/allowance, update_balance_allowance")
def _():
    a = state["alice"]
    col = a.get_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.COLLATERAL))
    check(col["balance"].isdigit() and int(col["balance"]) > 0, col)
    shares = a.get_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.CONDITIONAL, token_id=YES))
    check(int(shares["balance"]) > 0, shares)
    a.update_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.COLLATERAL))
    check(a.get_closed_only_mode() == {"closed_only": False}, "closed only")


@flow("heartbeats: a session starts from None and continues with its id")
def _():
    a = state["alice"]
    first = a.post_heartbeat(None)
    check(first["heartbeat_id"], first)
    check(a.post_heartbeat(first["heartbeat_id"])["heartbeat_id"] == first["heartbeat_id"], "continues")
    check(a.post_heartbeat("")["heartbeat_id"] == first["heartbeat_id"], "empty id joins the live session")


@flow("Safe-funded trading: signature_type 2 with the Safe as funder trades from the Safe")
def _():
    carol = ENV["keys"]["carol"]
    creds = ClobClient(HOST, chain_id=137, key=carol).create_or_derive_api_creds()
    c = ClobClient(HOST, chain_id=137, key=carol, creds=creds, signature_type=2, funder=ENV["safes"]["carol"])
    bal = c.get_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.COLLATERAL, signature_type=2))
    check(bal["balance"] == "100000000", bal)
    placed = c.create_and_post_order(OrderArgs(token_id=YES, price=0.20, size=10, side=BUY), OPTS)
    check(placed["success"], placed)
    check(c.get_order(placed["orderID"])["maker_address"].lower() == ENV["safes"]["carol"].lower(), "maker is the Safe")
    c.cancel(placed["orderID"])
