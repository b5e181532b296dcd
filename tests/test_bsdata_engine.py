"""The BattleScribe roster engine (desktop/engine/bsdata) on small data the tests write
(bsdata_samples: made up for these tests; no real game data is copied into the project)."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal

import pytest

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.errors import DataError, RosterActionError
from desktop.engine.bsdata.evaluate import Ancestors, Evaluation
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.model import Query
from desktop.engine.bsdata.reader import read_data_file
from desktop.engine.bsdata.rosterfile import load_roster, write_roster
from desktop.engine.bsdata.state import roster_state
from desktop.engine.bsdata.units import catalogue_units

from bsdata_samples import CAT, CHAMPION, GST, sample_data


def zipped(name: str, content: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, content)
    return buffer.getvalue()


def army(data: GameData):
    roster, force = actions.add_force(data, actions.new_roster("Test"), "fe-army", "cat")
    return roster, force


def test_a_new_unit_comes_with_its_minimum_models_and_its_mandatory_mount():
    data = sample_data()
    roster, force = army(data)
    roster, _knights = actions.select_entry(data, roster, force, "knights")
    state = roster_state(data, roster)
    unit = state.forces[0].selections[0]
    assert [(c.name, c.number) for c in unit.children] == [("Knight", 5), ("Warhorse", 1)]
    # 5 knights × 24; the link makes the horse free (its cost replaces the target's 14).
    assert state.costs[0].value == 120
    assert unit.children[1].entry_id == "k-horse::horse"


def test_a_per_model_option_follows_the_number_of_models():
    data = sample_data()
    roster, force = army(data)
    roster, knights = actions.select_entry(data, roster, force, "knights")
    roster, _stakes = actions.select_entry(data, roster, force, "stakes", knights)
    knight = next(s for s in roster.forces[0].selections[0].children
                  if s.option.definition.id == "knight")
    roster = actions.set_count(roster, knight.id, 12)
    state = roster_state(data, roster)
    costs = {c.name: c.costs[0].value for c in state.forces[0].selections[0].children
             if c.costs}
    assert costs == {"Knight": 288, "Stakes": 12, "Warhorse": 0}
    assert state.costs[0].value == 300


def test_actions_leave_the_roster_they_were_given_unchanged():
    data = sample_data()
    roster, force = army(data)
    before = roster
    after, _ = actions.select_entry(data, roster, force, "paladin")
    assert before.forces[0].selections == ()
    assert len(after.forces[0].selections) == 1
    assert roster_state(data, before).costs[0].value == 0  # undo is the old value


def test_limits_are_reported_in_a_players_words_and_as_the_specs_name_them():
    data = sample_data()
    roster, force = army(data)
    roster, first = actions.select_entry(data, roster, force, "paladin")
    roster, second = actions.select_entry(data, roster, force, "paladin")
    roster, _ = actions.select_entry(data, roster, force, "l-sword", first)
    assert [e.message for e in Evaluation(data, roster).errors()] == [
        "The roster must have at least 1 Core (has 0)"]
    roster, _ = actions.select_entry(data, roster, force, "l-sword", second)
    roster, _ = actions.select_entry(data, roster, force, "l-shield", second)
    errors = Evaluation(data, roster).errors()
    by_source = {e.source: e for e in errors}
    assert set(by_source) == {"core-min", "sword/sword-army", "p-items/items-pts"} - {
        "core-min"} | {"cl-core/core-min"}
    army_limit = by_source["sword/sword-army"]
    assert (army_limit.owner_kind, army_limit.owner_entry_id) == (
        "selection", "p-items::l-sword::sword")
    assert army_limit.message == "The roster can have at most 1 Sword of Tests (has 2)"
    allowance = by_source["p-items/items-pts"]
    assert (allowance.owner_kind, allowance.owner_entry_id) == ("selection", "paladin")
    assert allowance.message == "Paladin can have at most 50 pts of Magic Items (has 55)"


def test_selecting_an_entry_the_place_does_not_offer_is_refused():
    data = sample_data()
    roster, force = army(data)
    with pytest.raises(RosterActionError, match="'sword' cannot be selected in this force"):
        actions.select_entry(data, roster, force, "sword")
    with pytest.raises(RosterActionError, match="no force 'nope'"):
        actions.select_entry(data, roster, "nope", "paladin")


def test_a_roster_written_as_ros_reads_back_to_the_same_state():
    data = sample_data()
    roster, force = army(data)
    roster, _knights = actions.select_entry(data, roster, force, "knights")
    roster, paladin = actions.select_entry(data, roster, force, "paladin")
    roster, _ = actions.select_entry(data, roster, force, "l-sword", paladin)
    content = write_roster(data, roster)
    again = load_roster(data, zipped("army.ros", content), "army.rosz")
    assert again.problems == []
    assert roster_state(data, again.roster) == roster_state(data, roster)
    assert b'entryId="p-items::l-sword::sword"' in content


@pytest.mark.parametrize(("content", "message"), [
    (b"<catalogue", "bad.cat: not well-formed XML"),
    (b'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY e "x">]><catalogue/>',
     "bad.cat: refused: the XML declares DTD"),
    (b'<catalogue xmlns="http://example.com/other" id="c"/>',
     "bad.cat: wrong namespace 'http://example.com/other' for <catalogue>"),
    (b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"/>',
     "bad.cat: not BattleScribe data (the document is <roster>"),
    (CAT.replace('value="24"', 'value="lots"').encode(),
     "bad.cat: <cost> value 'lots' is not a number"),
    (CAT.replace('value="24"', 'value="NaN"').encode(),
     "bad.cat: <cost> value 'NaN' is not a usable number"),
])
def test_bad_files_are_one_line_naming_the_file_and_the_problem(content, message):
    with pytest.raises(DataError) as error:
        read_data_file(content, "bad.cat")
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_zipped_files_are_read_and_unsafe_zips_refused():
    assert read_data_file(zipped("Knights.cat", CAT.encode()), "k.catz").name == "Knights"
    with pytest.raises(DataError, match=r"k.catz: refused: the zip holds a path outside"):
        read_data_file(zipped("../Knights.cat", CAT.encode()), "k.catz")
    bomb = zipped("Knights.cat", CAT.encode() + b" " * (3 * 1024 * 1024))
    with pytest.raises(DataError, match=r"k.catz: refused: .* a zip bomb\?"):
        read_data_file(bomb, "k.catz")
    with pytest.raises(DataError, match=r"holds exactly one .gst/.cat file; this one holds 0"):
        read_data_file(zipped("notes.txt", b"x"), "k.catz")


def test_dangling_and_circular_links_are_left_out_with_one_problem_each():
    broken = CAT.replace('targetId="shield"', 'targetId="missing-shield"').replace(
        '<costs><cost name="pts" typeId="pts" value="10"/></costs>',
        '<entryLinks><entryLink id="loop" name="Loop" targetId="items" '
        'type="selectionEntryGroup"/></entryLinks>')
    data = sample_data(broken)
    problems = data.all_problems()
    assert any("link 'l-shield' ('Shield of Tests') points at 'missing-shield', which does "
               "not exist" in p for p in problems)
    roster, force = army(data)
    roster, _paladin = actions.select_entry(data, roster, force, "paladin")
    items = roster.forces[0].selections[0].option.selectable
    assert [o.name for o in items] == ["Warhorse", "Sword of Tests"]


def test_a_link_leading_back_into_itself_is_broken_once():
    looping = CAT.replace(
        '<costs><cost name="pts" typeId="pts" value="10"/></costs>',
        '<entryLinks><entryLink id="loop" name="Loop" targetId="items" '
        'type="selectionEntryGroup"/></entryLinks>')
    data = sample_data(looping)
    problems = [p for p in data.all_problems() if "circular" in p]
    assert len(problems) == 1
    assert "test.cat: link 'loop' ('Loop') leads back to 'Magic Items'" in problems[0]


def test_a_catalogue_of_another_game_system_is_refused_naming_both():
    other = CAT.replace('gameSystemId="gs"', 'gameSystemId="elsewhere"')
    with pytest.raises(DataError, match=r"test.cat: belongs to game system 'elsewhere', not "
                                        r"'gs' \('Test Battles'\)"):
        sample_data(other)


def test_cost_limits_and_decimal_costs():
    data = sample_data()
    roster, force = army(data)
    roster, _ = actions.select_entry(data, roster, force, "paladin")
    roster = actions.set_cost_limit(roster, "pts", Decimal(50))
    errors = Evaluation(data, roster).errors()
    assert next(e.source for e in errors if e.owner_kind == "roster") == "costLimits/pts"
    assert "The roster costs 60 pts, over its limit of 50" in [e.message for e in errors]


def test_a_champions_own_gear_is_not_counted_as_the_units_and_hidden_entries_wait():
    data = sample_data(CHAMPION)
    roster, force = army(data)
    roster, _ = actions.select_entry(data, roster, force, "guards")
    state = roster_state(data, roster)
    unit = state.forces[0].selections[0]
    # The unit and its captain each have one shield; the hidden banner is not selected.
    assert [(c.name, [g.name for g in c.children]) for c in unit.children] == [
        ("Captain", ["Shield"]), ("Shield", [])]
    assert [e.source for e in state.errors] == ["cl-core/core-min"]


def test_a_modifier_on_a_field_the_entry_does_not_have_is_one_problem():
    odd = CAT.replace('<modifier type="increment" field="pts" value="1">',
                      '<modifier type="increment" field="no-such-field" value="1">')
    data = sample_data(odd)
    assert data.all_problems() == [
        "test.cat: 'Stakes' ('stakes') has a modifier on 'no-such-field', which is no field "
        "of it nor one of its constraints; it is ignored"]
    assert sample_data().all_problems() == []


FORCED = CAT.replace(
    '<selectionEntry id="paladin" name="Paladin" type="unit">',
    '''<selectionEntry id="paladin" name="Paladin" type="unit">
      <selectionEntryGroups>
        <selectionEntryGroup id="gear" name="Gear">
          <constraints>
            <constraint id="gear-min" type="min" value="2" field="selections" scope="parent"/>
          </constraints>
          <selectionEntries>
            <selectionEntry id="spear" name="Spear" type="upgrade"><constraints>
              <constraint id="spear-max" type="max" value="1" field="selections" scope="parent"/>
            </constraints></selectionEntry>
            <selectionEntry id="helm" name="Helm" type="upgrade"><constraints>
              <constraint id="helm-max" type="max" value="1" field="selections" scope="parent"/>
            </constraints></selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
        <selectionEntryGroup id="vow" name="Vow">
          <constraints>
            <constraint id="vow-min" type="min" value="1" field="selections" scope="parent"/>
          </constraints>
          <selectionEntries>
            <selectionEntry id="grail" name="Grail Vow" type="upgrade"/>
            <selectionEntry id="quest" name="Questing Vow" type="upgrade"/>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>''')


def test_a_group_minimum_only_one_choice_meets_is_selected_the_others_wait():
    data = sample_data(FORCED)
    roster, force = army(data)
    roster, _ = actions.select_entry(data, roster, force, "paladin")
    state = roster_state(data, roster)
    # Two pieces of gear for a minimum of two: both. A vow out of two: the player chooses.
    assert [c.name for c in state.forces[0].selections[0].children] == ["Helm", "Spear"]
    assert "Paladin must have at least 1 Vow (has 0)" in [e.message for e in state.errors]


NESTED = CAT.replace(
    '<selectionEntry id="paladin" name="Paladin" type="unit">',
    '''<selectionEntry id="paladin" name="Paladin" type="unit">
      <selectionEntries>
        <selectionEntry id="banner" name="Banner" type="upgrade">
          <constraints><constraint id="b1" type="min" value="1" scope="parent"/></constraints>
          <modifiers><modifier type="append" field="name" value="(1 above)"><conditions>
            <condition type="equalTo" value="1" field="selections" scope="ancestor"/>
          </conditions></modifier></modifiers>
          <selectionEntries>
            <selectionEntry id="pole" name="Pole" type="upgrade">
              <constraints><constraint id="p1" type="min" value="1" scope="parent"/></constraints>
              <modifiers><modifier type="append" field="name" value="(2 above)"><conditions>
                <condition type="equalTo" value="2" field="selections" scope="ancestor"/>
              </conditions></modifier></modifiers>
            </selectionEntry>
          </selectionEntries>
        </selectionEntry>
      </selectionEntries>''')


def test_each_selection_counts_its_own_ancestors():
    """Scopes made per query (ancestors, a category, a catalogue) are cached by what they
    are: keyed by their id, a later query's scope could take an earlier one's answer."""
    data = sample_data(NESTED)
    roster, force = army(data)
    roster, _ = actions.select_entry(data, roster, force, "paladin")
    paladin = roster_state(data, roster).forces[0].selections[0]
    banner = next(c for c in paladin.children if c.name.startswith("Banner"))
    assert (banner.name, banner.children[0].name) == ("Banner (1 above)", "Pole (2 above)")
    evaluation = Evaluation(data, roster)
    query = Query(field="selections", scope="ancestor")
    pole = evaluation.by_selection_id[banner.children[0].id]
    # One query right after the other: the first's scope is freed, the second's is made.
    counts = [evaluation.query_value(query, evaluation.place_of(node))
              for node in (pole.parent, pole, pole.parent)]
    assert counts == [1, 2, 1]
    # Two scopes that mean the same, alive at once, share one cached answer (the cache
    # keys what a scope stands for, not the object's id).
    first = Ancestors((pole.parent,))
    again = Ancestors((pole.parent,))
    assert evaluation.key_counts(first, False, False, True) is evaluation.key_counts(
        again, False, False, True)


BEASTS = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="beasts" name="Beasts" revision="1" gameSystemId="gs"
    xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="pack" name="Bog Beasts" type="unit" subType="unit-group">
      <categoryLinks><categoryLink id="p-core" targetId="cat-core" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="beast" name="Bog Beast" type="unit">
          <constraints>
            <constraint id="b-min" type="min" value="1" field="selections" scope="parent"/>
            <constraint id="b-max" type="max" value="3" field="selections" scope="parent"/>
          </constraints>
          <costs><cost name="pts" typeId="pts" value="85"/></costs>
          <selectionEntries>
            <selectionEntry id="horns" name="Great Horns" type="upgrade">
              <costs><cost name="pts" typeId="pts" value="5"/></costs>
            </selectionEntry>
          </selectionEntries>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="hermit" name="Hermit" type="unit">
      <categoryLinks><categoryLink id="h-core" targetId="cat-core" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts" value="50"/></costs>
      <selectionEntries>
        <selectionEntry id="toad" name="Giant Toad" type="unit">
          <constraints>
            <constraint id="t-max" type="max" value="1" field="selections" scope="parent"/>
          </constraints>
          <costs><cost name="pts" typeId="pts" value="30"/></costs>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


def test_a_unit_made_of_priced_units_is_counted_in_them_a_single_companion_is_not():
    data = sample_data(BEASTS)
    pack, hermit = catalogue_units(data, "beasts")
    assert (pack.name, pack.slot, pack.points_per_model, pack.base_points, pack.min_models,
            pack.max_models) == ("Bog Beasts", "Core", 85.0, 85.0, 1, 3)
    assert [(o.name, o.points) for o in pack.options] == [("Great Horns", 5.0)]
    assert (hermit.points_per_model, hermit.base_points, hermit.min_models,
            hermit.max_models) == (None, 50.0, 1, 1)
    assert [(o.name, o.points) for o in hermit.options] == [("Giant Toad", 30.0)]


def test_a_cost_type_the_armys_data_prices_nothing_in_is_not_in_the_totals():
    # As BattleScribe (battlescribe-spec cost-hidden-limit-validation): the roster lists a
    # cost type once its data prices something in it; pts 0 is shown for an empty army.
    with_cp = GST.replace('<costTypes>', '<costTypes><costType id="cp" name="CP" '
                                         'defaultCostLimit="-1"/>')
    data = sample_data(system=with_cp)
    roster, _force = army(data)
    state = roster_state(data, roster)
    assert [(c.type_id, c.value) for c in state.costs] == [("pts", 0)]
    assert [c.type_id for c in state.forces[0].costs] == ["pts"]


HOSTILE = CAT.replace('<costs><cost name="pts" typeId="pts" value="60"/></costs>', '''
      <costs><cost name="pts" typeId="pts" value="60"/></costs>
      <modifiers>
        <modifier type="multiply" field="pts" value="10">
          <repeats><repeat field="selections" scope="roster" childId="paladin" value="1"
              repeats="10000000"/></repeats>
        </modifier>
        <modifier type="append" field="name" value="0.000001">
          <repeats><repeat field="selections" scope="roster" childId="paladin"
              value="0.000001" repeats="1000000"/></repeats>
        </modifier>
      </modifiers>''', 1)


def test_a_modifier_repeated_millions_of_times_is_capped_and_an_overflow_left_out():
    # A multiply by 10, ten million times, is past any number; an append of a millionth
    # counted in millionths, a million times, was 10^12 appends.
    data = sample_data(HOSTILE)
    assert data.all_problems() == [
        "test.cat: 'Paladin' ('paladin') has a modifier on 'pts' repeated more than 100,000 "
        "times; it applies 100,000 times at most",
        "test.cat: 'Paladin' ('paladin') has a modifier on 'name' repeated more than "
        "100,000 times; it applies 100,000 times at most"]
    paladin = next(u for u in catalogue_units(data, "cat") if u.id == "paladin")
    assert paladin.base_points == 60  # the multiply left out
    assert paladin.name.startswith("Paladin 0.000001 0.000001") and len(paladin.name) == 10_000
    roster, force = army(data)
    roster, _ = actions.select_entry(data, roster, force, "paladin")
    assert "A modifier of Paladin (multiply pts by 10) gives a number too large to use; it " \
           "is left out" in [e.message for e in roster_state(data, roster).errors]


REFERENCES = CAT.replace('''  <sharedSelectionEntryGroups>''', '''  <entryLinks>
    <entryLink id="l-gone" name="Mercenary" targetId="gone" type="selectionEntry"/>
    <entryLink id="l-other" name="Other Army's Hero" targetId="o-hero" type="selectionEntry"/>
  </entryLinks>
  <sharedSelectionEntryGroups>''', 1).replace(
    '''<selectionEntry id="shield" name="Shield of Tests" type="upgrade">''',
    '''<selectionEntry id="shield" name="Shield of Tests" type="upgrade">
      <categoryLinks><categoryLink id="sh-rare" targetId="cat-rare"/></categoryLinks>
      <infoLinks><infoLink id="sh-rule" name="Ward" targetId="r-ward" type="rule"/></infoLinks>
      <modifiers>
        <modifier type="set" field="hidden" value="true">
          <conditions>
            <condition type="atLeast" value="1" field="selections" scope="roster"
                childId="o-hero"/>
          </conditions>
          <conditionGroups><conditionGroup type="or"><conditions>
            <condition type="atLeast" value="1" field="selections" scope="roster"
                childId="nowhere"/>
          </conditions></conditionGroup></conditionGroups>
        </modifier>
      </modifiers>''', 1)
OTHER = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="other" name="Others" revision="1" gameSystemId="gs"
    xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries><selectionEntry id="o-hero" name="Hero" type="unit"/></selectionEntries>
</catalogue>"""


def test_every_reference_to_a_missing_id_is_a_warning_a_root_link_too():
    # A link at the root of a catalogue (a unit from a library not added) vanished
    # without a word; so did a category link, an info link and a condition on an id no
    # file has. A condition on another catalogue's entry names something that is there
    # (a roster may hold forces of both); a link to it from this one is not.
    data = sample_data(REFERENCES, OTHER)
    assert sorted(data.all_problems()) == [
        "test.cat: 'Shield of Tests' ('shield') has a category link 'sh-rare' to "
        "'cat-rare', which is no category; it is left out",
        "test.cat: 'Shield of Tests' ('shield') has a condition or repeat counting "
        "'nowhere', which no file of the game system defines (is a catalogue missing?); it "
        "counts nothing",
        "test.cat: 'Shield of Tests' ('shield') has an info link 'sh-rule' to 'r-ward', "
        "which is no rule; it is left out",
        "test.cat: link 'l-gone' ('Mercenary') points at 'gone', which does not exist (or "
        "is not a selectionEntry); it is left out",
        "test.cat: link 'l-other' (\"Other Army's Hero\") points at 'o-hero', which does not "
        "exist (or is not a selectionEntry); it is left out"]
    # The rest is usable: the units are there, the broken root links are not.
    assert [u.id for u in catalogue_units(data, "cat")] == ["knights", "paladin"]


ONCE_PER_CATALOGUE = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat" name="Knights" revision="1" gameSystemId="gs"
    xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="hero" name="Hero" type="unit">
      <selectionEntries>
        <selectionEntry id="grail" name="Grail" type="upgrade">
          <constraints>
            <constraint id="one-grail" type="max" value="1" field="selections"
                scope="primary-catalogue" shared="true"/>
          </constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>"""


def test_a_limit_broken_in_two_places_of_a_fresh_scope_is_one_error():
    # A limit per primary catalogue, broken by two heroes' grails: its scope is made anew
    # for each hero, and keying the broken limit by that object's id() gave two errors.
    data = sample_data(ONCE_PER_CATALOGUE)
    roster, force = army(data)
    for _ in range(2):
        roster, hero = actions.select_entry(data, roster, force, "hero")
        roster, _ = actions.select_entry(data, roster, force, "grail", hero)
    errors = [e for e in Evaluation(data, roster).errors() if e.source == "grail/one-grail"]
    assert len(errors) == 1, errors
    # The army's limit, said of the army (it read "Hero can have at most 1 Grail"), owned
    # by the selection that breaks it, as a per-force limit is.
    assert (errors[0].message, errors[0].owner_entry_id) == (
        "Army can have at most 1 Grail (has 2)", "grail")


def roster_file(forces_deep: int, number: str = "1") -> bytes:
    """A roster of one Paladin (`number` of them) in a force `forces_deep` forces down."""
    body = f'<selections><selection entryId="paladin" number="{number}"/></selections>'
    for _ in range(forces_deep):
        body = f'<forces><force entryId="fe-army" catalogueId="cat">{body}</force></forces>'
    return ('<roster id="r" name="R" gameSystemId="gs" '
            f'xmlns="http://www.battlescribe.net/schema/rosterSchema">{body}</roster>').encode()


@pytest.mark.parametrize(("content", "message"), [
    # Forces 3,000 deep ran out of Python's stack (a RecursionError, not a message).
    (roster_file(3000), "deep.ros: forces nested more than 50 deep"),
    # 1e100000 is a whole number: it was taken, and then no figure could be shown of it.
    (roster_file(1, "1e100000"), "deep.ros: the number of 'paladin' is '1e100000', more "
                                 "than 100,000 of anything"),
])
def test_a_hostile_roster_file_is_one_message(content, message):
    with pytest.raises(DataError) as raised:
        load_roster(sample_data(), content, "deep.ros")
    assert str(raised.value) == message
    assert load_roster(sample_data(), roster_file(2), "ok.ros").roster.forces[0].forces


ROOT_GROUP = CAT.replace('''  <sharedSelectionEntryGroups>''', '''  <entryLinks>
    <entryLink id="l-hirelings" name="Hirelings" targetId="hirelings"
        type="selectionEntryGroup"/>
  </entryLinks>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="hirelings" name="Hirelings">
      <selectionEntries>
        <selectionEntry id="scout" name="Scout" type="unit"/>
        <selectionEntry id="spy" name="Spy" type="unit" hidden="true"/>
      </selectionEntries>
    </selectionEntryGroup>''', 1).replace(
    '<selectionEntry id="paladin" name="Paladin" type="unit">',
    '''<selectionEntry id="ghost" name="Ghost" type="unit" hidden="true"/>
    <selectionEntry id="paladin" name="Paladin" type="unit">''', 1)


def test_a_force_offers_its_visible_root_entries_a_root_groups_apart():
    # Knights and Paladin (the hidden Ghost not); the entries of the Hirelings group,
    # linked at the root, are listed apart. Every entry of it was taken off the visible
    # ones, the hidden Spy too, which gave 1.
    data = sample_data(ROOT_GROUP)
    roster, _ = army(data)
    assert roster_state(data, roster).forces[0].available_entry_count == 2


GOLD = CAT.replace("  <selectionEntries>", '''  <costTypes>
    <costType id="gold" name="Gold" defaultCostLimit="-1"/>
  </costTypes>
  <selectionEntries>''', 1).replace(
    '<costs><cost name="pts" typeId="pts" value="60"/></costs>',
    '<costs><cost name="pts" typeId="pts" value="60"/><cost name="Gold" typeId="gold" '
    'value="5"/></costs>', 1)


def test_a_cost_type_a_catalogue_declares_is_in_the_roster():
    # The catalogue's own Gold: the Paladin costs 5 of it. The roster listed only the game
    # system's cost types, so the 5 Gold were nowhere.
    data = sample_data(GOLD)
    roster, force = army(data)
    roster, _ = actions.select_entry(data, roster, force, "paladin")
    state = roster_state(data, roster)
    assert [(c.name, c.value) for c in state.costs] == [("pts", 60), ("Gold", 5)]
    assert [(c.name, c.value) for c in state.forces[0].selections[0].costs] == [
        ("pts", 60), ("Gold", 5)]


def test_an_option_priced_per_two_models_is_half_a_point_per_model():
    # +1 pts repeated once per 2 models: `rout data units` said 1 per model.
    per_one = '''<repeat field="selections" scope="parent" value="1" repeats="1"
                    childId="model" shared="true"/>'''
    halves = CAT.replace(per_one, per_one.replace('value="1"', 'value="2"'), 1)
    assert halves != CAT
    data = sample_data(halves)
    knights = next(u for u in catalogue_units(data, "cat") if u.id == "knights")
    stakes = next(o for o in knights.options if o.name == "Stakes")
    assert (stakes.points, stakes.per_model) == (0.5, True)
    # The roster agrees: 5 knights (their minimum) pay 2 for their stakes.
    roster, force = army(data)
    roster, unit = actions.select_entry(data, roster, force, "knights")
    roster, _ = actions.select_entry(data, roster, force, "stakes", unit)
    assert roster_state(data, roster).costs[0].value == 5 * 24 + 2
