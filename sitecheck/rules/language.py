r"""The rule language: conditions such as ``disturbed_area_sqft >= 1/2 acre``.

A rule's ``when`` is parsed once (:func:`parse`), checked once against the
names a pack may use (:func:`check`), then evaluated per parcel
(:func:`evaluate`) in three-valued logic with reasons. Rule text is never
handed to Python: a hand-written tokenizer and recursive-descent parser read
it.

Grammar (EBNF; operators from loosest to tightest binding)::

    condition   = disjunction ;
    disjunction = conjunction , { "or" , conjunction } ;
    conjunction = negation , { "and" , negation } ;
    negation    = { "not" } , comparison ;
    comparison  = sum , [ compare_op , sum
                        | [ "not" ] , "in" , ( list | name )   (* name: a list parameter *)
                        | "is" , [ "not" ] , "null" ] ;      (* no chaining *)
    compare_op  = "<" | "<=" | ">" | ">=" | "==" | "!=" ;
    sum         = product , { ( "+" | "-" ) , product } ;
    product     = signed , { ( "*" | "/" ) , signed } ;
    signed      = { "-" } , measured ;
    measured    = number , "/" , number , unit             (* 1/2 acre *)
                | number , unit                            (* 5 acres *)
                | "(" , disjunction , ")" , unit           (* (a + b) sqft *)
                | primary ;
    primary     = number | string | "true" | "false" | call | name
                | "(" , disjunction , ")" ;
    call        = ( "abs" | "max" | "min" ) , "(" , [ sum , { "," , sum } ] , ")" ;
    list        = "[" , sum , { "," , sum } , [ "," ] , "]" ;
    unit        = "sqft" | "sq" , "ft" | "acre" | "acres" | "ft" | "feet"
                | "%" | "pct" | "inch" | "inches" ;
    number      = digits , [ "." , digits ] ;
    digits      = digit , { [ "_" ] , digit } ;
    string      = '"' , { character - '"' } , '"'
                | "'" , { character - "'" } , "'" ;          (* no escapes *)
    name        = ( letter | "_" ) , { letter | digit | "_" } ;   (* not a keyword *)
    keyword     = "and" | "or" | "not" | "in" | "is" | "null" | "true" | "false" ;

Decisions worth knowing:

- A unit binds tightest, to the number, the fraction of two number literals,
  or the parenthesised expression just before it: ``1/2 acre`` is half an
  acre (21,780 sq ft), ``(1 + 1) acres`` is two acres, and ``x / 2 acre``
  with a name ``x`` divides by two acres. Two number literals joined by ``/``
  before a unit are always a fraction (``10 / 4 acres`` is 2.5 acres). A unit
  after a name or a call is an error. Units: 1 acre = 43,560 sq ft; ``%`` and
  ``pct`` are percent points.
- Numbers are written ``7500`` or ``7_500``. ``7,500`` is an error, because a
  comma separates list items and function arguments.
- ``null`` appears only in ``is null`` / ``is not null``, and lists only after
  ``in`` / ``not in``. No attribute access, indexing, or calls other than
  ``abs``, ``max`` and ``min``.
- Types: areas (sq ft), lengths (ft), percents, depths (inches), plain
  numbers, text and true/false. ``+ -`` and comparisons need one type;
  ``*`` needs a plain number on one side; ``/`` of equal types is a plain
  number. A ``share`` is a plain number from 0 to 1.
- Evaluation is Kleene three-valued logic. A null value makes its comparison
  UNKNOWN; so does a measured value within ``tolerance`` of the value it is
  compared with, ties included. A zero threshold or a tolerance of 0 leaves an
  empty band, and comparison is exact.
"""

from __future__ import annotations

from sitecheck.rules.checker import check, type_of
from sitecheck.rules.errors import RuleLanguageError
from sitecheck.rules.evaluate import constant_value, evaluate
from sitecheck.rules.names import NameInfo, is_quantity
from sitecheck.rules.parser import parse
from sitecheck.rules.syntax import Expression, names_in
from sitecheck.rules.truth import Evaluation, Truth
from sitecheck.rules.units import Quantity

__all__ = [
    "Evaluation",
    "Expression",
    "NameInfo",
    "Quantity",
    "RuleLanguageError",
    "Truth",
    "check",
    "evaluate",
    "names_in",
    "parse",
    "parse_quantity",
]


def parse_quantity(text: str) -> Quantity:
    """A constant quantity written in the rule language, for pack parameters.

    ``"500 sqft"``, ``"1/2 acre"``, ``"15%"`` or ``"0.9"``.

    Raises
    ------
    RuleLanguageError
        When the text does not parse, names anything, or is not a quantity.
    """
    expr = parse(text)
    if not is_quantity(type_of(expr, {})):
        raise RuleLanguageError(f"{text.strip()} is not a quantity such as 500 sqft", 0)
    value = constant_value(expr, {})
    if not isinstance(value, Quantity):
        raise RuleLanguageError(f"{text.strip()} is not a quantity such as 500 sqft", 0)
    return value
