"""py-clob-client-v2, unmodified, against an engine in the polymarket profile (it signs V2 orders there)."""
import time

from py_clob_client_v2 import (
    AssetType,
    BalanceAllowanceParams,
    BookParams,
    ClobClient,
    MarketOrderArgsV2,
    OpenOrderParams,
    OrderArgsV1,
    OrderArgsV2,
    OrderMarketCancelParams,
    OrderPayload,
    OrderScoringParams,
    OrderType,
    PartialCreateOrderOptions,
    PostOrdersV2Args,
    TradeParams,
)

from flows import ENV, HOST, MARKET, NO, YES, check, flow, raises
from price_reads import check_price_reads

OPTS = PartialCreateOrderOptions(tick_size="0.01", neg_risk=False)
state = {}


def _options():
    from py_clob_client_v2 import CreateOrderOptions

    return CreateOrderOptions(tick_size="0.01", neg_risk=False)


@flow("credentials: create, derive, create_or_derive twice in one second, two clients in one second, nonce slots")
def _():
    l1 = ClobClient(HOST, 137, key=ENV["keys"]["dave"])
    created = l1.create_api_key()
    check(len(created.api_key) == 36, created)
    check(l1.derive_api_key() == created, "derive")
    again = [l1.create_or_derive_api_key(), l1.create_or_derive_api_key()]
    check(all(c == created for c in again), again)
    check(ClobClient(HOST, 137, key=ENV["keys"]["dave"]).create_or_derive_api_key() == created, "second client")
    five = l1.create_api_key(5)
    check(five.api_key != created.api_key and l1.derive_api_key(5) == five, five)
    state["dave"] = ClobClient(HOST, 137, key=ENV["keys"]["dave"], creds=created)
    check(sorted(state["dave"].get_api_keys()["apiKeys"]) == sorted([created.api_key, five.api_key]), "api keys")
    erin = ClobClient(HOST, 137, key=ENV["keys"]["erin"])
    state["erin"] = ClobClient(HOST, 137, key=ENV["keys"]["erin"], creds=erin.create_or_derive_api_key())


@flow("GTC V2 order rests: create_and_post_order answers success, get_order and get_open_orders read it")
def _():
    d = state["dave"]
    signed = d.create_order(OrderArgsV2(token_id=YES, price=0.40, size=10, side="BUY"), OPTS)
    check(hasattr(signed, "timestamp"), "a V2 order")
    placed = d.post_order(signed, OrderType.GTC)
    check(placed["success"] and placed["status"] == "live", placed)
    order = d.get_order(placed["orderID"])
    check(order["status"] == "LIVE" and order["outcome"] == "Yes", order)
    check([o["id"] for o in d.get_open_orders(OpenOrderParams(market=MARKET["conditionId"]))] == [placed["orderID"]], "open orders")
    check(d.is_order_scoring(OrderScoringParams(orderId=placed["orderID"]))["scoring"] is False, "scoring")
    state["resting"] = placed["orderID"]


@flow("a crossing GTC order fills: matched, amounts, trade ids; get_trades lists it for both sides")
def _():
    taken = state["erin"].create_and_post_order(OrderArgsV2(token_id=NO, price=0.60, size=6, side="BUY"), OPTS)
    check(taken["success"] and taken["status"] == "matched", taken)
    check((taken["makingAmount"], taken["takingAmount"]) == ("3.6", "6"), taken)
    check([t["id"] for t in state["erin"].get_trades(TradeParams(market=MARKET["conditionId"]))] == taken["tradeIDs"], "taker trades")
    maker = state["dave"].get_trades(TradeParams(id=taken["tradeIDs"][0]))
    check(maker[0]["maker_orders"][0]["order_id"] == state["resting"], maker)


@flow("a V1 order from the same client (OrderArgsV1) is accepted beside V2 ones")
def _():
    d = state["dave"]
    placed = d.post_order(d.builder.build_order(OrderArgsV1(token_id=YES, price=0.12, size=5, side="BUY"), _options(), version=1, fee_rate_bps=0), OrderType.GTC)
    check(placed["success"] and placed["status"] == "live", placed)
    d.cancel_order(OrderPayload(orderID=placed["orderID"]))


@flow("public reads: ok, version 2, time, markets, market info, book, prices, midpoints, spreads, tick size, neg risk, fee rate")
def _():
    c = ClobClient(HOST, 137)
    # A bid (BUY YES 0.30) and an ask (BUY NO 0.60 is an ask of YES at 0.40), so every price read has a book.
    bid = state["dave"].create_and_post_order(OrderArgsV2(token_id=YES, price=0.30, size=5, side="BUY"), OPTS)["orderID"]
    ask = state["erin"].create_and_post_order(OrderArgsV2(token_id=NO, price=0.60, size=5, side="BUY"), OPTS)["orderID"]
    check(c.get_ok() == "OK", "ok")
    check(c.get_version() == 2, c.get_version())
    check(abs(int(c.get_server_time()) - time.time()) < 60, "time")
    check(any(m["condition_id"] == MARKET["conditionId"] for m in c.get_markets()["data"]), "markets")
    check(c.get_market(MARKET["conditionId"])["condition_id"] == MARKET["conditionId"], "market")
    check(c.get_clob_market_info(MARKET["conditionId"]) is not None, "clob market info")
    book = c.get_order_book(YES)
    check(book["asset_id"] == YES and book["tick_size"] == "0.01", book)
    check(len(c.get_order_books([BookParams(token_id=YES), BookParams(token_id=NO)])) == 2, "books")
    check(c.get_tick_size(YES) == "0.01" and c.get_neg_risk(YES) is False, "tick / neg risk")
    check(isinstance(c.get_fee_rate_bps(YES), int), "fee rate")
    check_price_reads(c, BookParams)
    check(c.get_midpoint(YES) == {"mid": "0.35"}, c.get_midpoint(YES))
    state["dave"].cancel_order(OrderPayload(orderID=bid))
    state["erin"].cancel_order(OrderPayload(orderID=ask))


@flow("GTD order: its expiration is kept; one expiring too soon is refused with the client's exception")
def _():
    d = state["dave"]
    expiration = int(time.time()) + 3600
    placed = d.create_and_post_order(OrderArgsV2(token_id=YES, price=0.15, size=5, side="BUY", expiration=expiration), OPTS, OrderType.GTD)
    check(placed["status"] == "live", placed)
    check(d.get_order(placed["orderID"])["expiration"] == str(expiration), "expiration")
    raises(lambda: d.create_and_post_order(OrderArgsV2(token_id=YES, price=0.15, size=5, side="BUY", expiration=int(time.time()) + 30), OPTS, OrderType.GTD), status=400, contains="INVALID_ORDER_EXPIRATION")
    d.cancel_order(OrderPayload(orderID=placed["orderID"]))


@flow("FOK market order (create_and_post_market_order) fills in full; an unfillable one is refused")
def _():
    d, e = state["dave"], state["erin"]
    check(e.create_and_post_order(OrderArgsV2(token_id=NO, price=0.70, size=10, side="BUY"), OPTS)["status"] == "live", "rest")
    fok = d.create_and_post_market_order(MarketOrderArgsV2(token_id=YES, amount=3, side="BUY", price=0.30), OPTS, OrderType.FOK)
    check(fok["success"] and fok["status"] == "matched" and fok["takingAmount"] == "10", fok)
    raises(lambda: d.create_and_post_market_order(MarketOrderArgsV2(token_id=YES, amount=3, side="BUY", price=0.30), OPTS, OrderType.FOK), status=400, contains="FOK_ORDER_NOT_FILLED_ERROR")


@flow("FAK market order fills what it can and cancels the rest")
def _():
    d, e = state["dave"], state["erin"]
    check(e.create_and_post_order(OrderArgsV2(token_id=NO, price=0.75, size=5, side="BUY"), OPTS)["status"] == "live", "rest")
    fak = d.create_and_post_market_order(MarketOrderArgsV2(token_id=YES, amount=5, side="BUY", price=0.25, order_type=OrderType.FAK), OPTS, OrderType.FAK)
    check(fak["success"] and fak["takingAmount"] == "5", fak)
    check(d.get_open_orders(OpenOrderParams(id=fak["orderID"])) == [], "nothing rests")


@flow("market SELL of held shares fills against a bid")
def _():
    d, e = state["dave"], state["erin"]
    check(e.create_and_post_order(OrderArgsV2(token_id=YES, price=0.55, size=5, side="BUY"), OPTS)["status"] == "live", "bid")
    sold = d.create_and_post_market_order(MarketOrderArgsV2(token_id=YES, amount=5, side="SELL", price=0.55), OPTS, OrderType.FOK)
    check(sold["success"] and sold["status"] == "matched", sold)


@flow("post_orders places a batch: one fills, one rests")
def _():
    d, e = state["dave"], state["erin"]
    check(e.create_and_post_order(OrderArgsV2(token_id=NO, price=0.50, size=5, side="BUY"), OPTS)["status"] == "live", "rest")
    results = d.post_orders([
        PostOrdersV2Args(order=d.create_order(OrderArgsV2(token_id=YES, price=0.50, size=5, side="BUY"), OPTS), orderType=OrderType.GTC),
        PostOrdersV2Args(order=d.create_order(OrderArgsV2(token_id=YES, price=0.11, size=5, side="BUY"), OPTS), orderType=OrderType.GTC),
    ])
    check([r["status"] for r in results] == ["matched", "live"], results)
    d.cancel_order(OrderPayload(orderID=results[1]["orderID"]))


@flow("every cancel: cancel_order, cancel_orders, cancel_market_orders by market and by asset, cancel_all")
def _():
    d = state["dave"]
    place = lambda price: d.create_and_post_order(OrderArgsV2(token_id=YES, price=price, size=5, side="BUY"), OPTS)["orderID"]  # noqa: E731
    one = place(0.10)
    check(d.cancel_order(OrderPayload(orderID=one)) == {"canceled": [one], "not_canceled": {}}, "cancel_order")
    two = [place(0.11), place(0.12)]
    check(sorted(d.cancel_orders(two)["canceled"]) == sorted(two), "cancel_orders")
    by_market = place(0.13)
    check(d.cancel_market_orders(OrderMarketCancelParams(market=MARKET["conditionId"]))["canceled"] == [by_market], "by market")
    by_asset = place(0.14)
    check(d.cancel_market_orders(OrderMarketCancelParams(asset_id=YES))["canceled"] == [by_asset], "by asset")
    place(0.15)
    check(len(d.cancel_all()["canceled"]) >= 1, "cancel_all")
    check(d.get_open_orders() == [], "nothing open")


@flow("balances: collateral and conditional balance/allowance, update_balance_allowance, closed-only mode")
def _():
    d = state["dave"]
    col = d.get_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.COLLATERAL))
    check(col["balance"].isdigit() and int(col["balance"]) > 0, col)
    check(int(d.get_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.CONDITIONAL, token_id=YES))["balance"]) >= 0, "shares")
    d.update_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.COLLATERAL))
    check(d.get_closed_only_mode()["closed_only"] is False, "closed only")


@flow("heartbeats: the default empty id starts a session; its id continues it")
def _():
    d = state["dave"]
    first = d.post_heartbeat()
    check(first["heartbeat_id"], first)
    check(d.post_heartbeat(first["heartbeat_id"])["heartbeat_id"] == first["heartbeat_id"], "continues")


@flow("Safe-funded trading: signature_type 2 with the Safe as funder trades from the Safe")
def _():
    key = ENV["keys"]["frank"]
    creds = ClobClient(HOST, 137, key=key).create_or_derive_api_key()
    c = ClobClient(HOST, 137, key=key, creds=creds, signature_type=2, funder=ENV["safes"]["frank"])
    check(c.get_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.COLLATERAL))["balance"] == "100000000", "Safe balance")
    placed = c.create_and_post_order(OrderArgsV2(token_id=YES, price=0.20, size=10, side="BUY"), OPTS)
    check(placed["success"], placed)
    check(c.get_order(placed["orderID"])["maker_address"].lower() == ENV["safes"]["frank"].lower(), "maker is the Safe")
    c.cancel_order(OrderPayload(orderID=placed["orderID"]))
