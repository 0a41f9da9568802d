"""The price reads py-clob-client and py-clob-client-v2 share (same methods, same answers' shapes)."""
from flows import YES, check


def check_price_reads(client, book_params):
    """Each single-token read answers an object; midpoints, prices and spreads read in batch (`book_params`
    is the client's own BookParams class)."""
    for call in (lambda: client.get_midpoint(YES), lambda: client.get_price(YES, "BUY"), lambda: client.get_spread(YES), lambda: client.get_last_trade_price(YES)):
        check(isinstance(call(), dict), "single-token read")
    check(isinstance(client.get_midpoints([book_params(token_id=YES)]), dict), "midpoints")
    check(isinstance(client.get_prices([book_params(token_id=YES, side="BUY")]), dict), "prices")
    check(isinstance(client.get_spreads([book_params(token_id=YES)]), dict), "spreads")
