"""A die's reasons not to be trusted: joined once by the reader, split again by the table."""

from companion.reading import DieReading, join_reasons


def test_reasons_are_joined_in_order_without_blanks_or_repeats_and_split_back() -> None:
    why = join_reasons("low confidence", "", "cut by the frame edge", "low confidence")
    assert why == "low confidence; cut by the frame edge"
    die = DieReading("d20", 7, 0.4, (0, 0, 9, 9), True, why)
    assert die.reasons == ["low confidence", "cut by the frame edge"]
    assert DieReading("d6", 3, 0.97, (0, 0, 9, 9)).reasons == []
