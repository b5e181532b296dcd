"""A made-up game system and catalogues in BattleScribe's format, for the engine's and the
store's tests (no real game data is copied into the project): a unit sold per model with a
per-model option and a mount whose link makes it free, a character with a magic-item
allowance reached through a group link, an army-wide item, and a unit whose champion has
its own copy of the unit's gear.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.reader import read_data_file

# The real game data the shared folder holds for the tests (never shipped with Rout).
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
BSDATA = SHARED / "bsdata"
ROSTER = SHARED / "battlescribe" / "bretonnia-6th-newrecruit.rosz"


def need(path: Path) -> None:
    """Skip, saying why, when the shared copy of `path` is not there."""
    if not path.exists():
        pytest.skip(f"no shared copy at {path}")


GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs" name="Test Battles" revision="3" battleScribeVersion="2.03"
    xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <categoryEntries>
    <categoryEntry id="cat-core" name="Core"/>
    <categoryEntry id="cat-heroes" name="Heroes"/>
  </categoryEntries>
  <forceEntries>
    <forceEntry id="fe-army" name="Army">
      <categoryLinks>
        <categoryLink id="cl-core" name="Core" targetId="cat-core">
          <constraints>
            <constraint id="core-min" type="min" value="1" field="selections" scope="roster"
                shared="true"/>
          </constraints>
        </categoryLink>
        <categoryLink id="cl-heroes" name="Heroes" targetId="cat-heroes"/>
      </categoryLinks>
    </forceEntry>
  </forceEntries>
  <sharedSelectionEntries>
    <selectionEntry id="horse" name="Warhorse" type="upgrade">
      <costs><cost name="pts" typeId="pts" value="14"/></costs>
    </selectionEntry>
  </sharedSelectionEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat" name="Knights" revision="1" battleScribeVersion="2.03" gameSystemId="gs"
    xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="knights" name="Knights" type="unit">
      <categoryLinks><categoryLink id="k-core" targetId="cat-core" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="knight" name="Knight" type="model">
          <constraints>
            <constraint id="k-min" type="min" value="5" field="selections" scope="parent"/>
            <constraint id="k-max" type="max" value="15" field="selections" scope="parent"/>
          </constraints>
          <costs><cost name="pts" typeId="pts" value="24"/></costs>
        </selectionEntry>
        <selectionEntry id="stakes" name="Stakes" type="upgrade">
          <constraints>
            <constraint id="s-max" type="max" value="1" field="selections" scope="parent"/>
          </constraints>
          <modifiers>
            <modifier type="increment" field="pts" value="1">
              <repeats>
                <repeat field="selections" scope="parent" value="1" repeats="1"
                    childId="model" shared="true"/>
              </repeats>
            </modifier>
          </modifiers>
          <costs><cost name="pts" typeId="pts" value="0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <entryLinks>
        <entryLink id="k-horse" name="Warhorse" targetId="horse" type="selectionEntry">
          <constraints>
            <constraint id="kh-min" type="min" value="1" field="selections" scope="parent"/>
          </constraints>
          <costs><cost name="pts" typeId="pts" value="0"/></costs>
        </entryLink>
      </entryLinks>
    </selectionEntry>
    <selectionEntry id="paladin" name="Paladin" type="unit">
      <categoryLinks>
        <categoryLink id="p-heroes" targetId="cat-heroes" primary="true"/>
      </categoryLinks>
      <costs><cost name="pts" typeId="pts" value="60"/></costs>
      <entryLinks>
        <entryLink id="p-horse" name="Warhorse" targetId="horse" type="selectionEntry"/>
        <entryLink id="p-items" name="Magic Items" targetId="items" type="selectionEntryGroup">
          <constraints>
            <constraint id="items-pts" type="max" value="50" field="pts" scope="parent"/>
          </constraints>
        </entryLink>
      </entryLinks>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="items" name="Magic Items">
      <entryLinks>
        <entryLink id="l-sword" name="Sword of Tests" targetId="sword" type="selectionEntry"/>
        <entryLink id="l-shield" name="Shield of Tests" targetId="shield" type="selectionEntry"/>
      </entryLinks>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
  <sharedSelectionEntries>
    <selectionEntry id="sword" name="Sword of Tests" type="upgrade">
      <constraints>
        <constraint id="sword-army" type="max" value="1" field="selections" scope="roster"
            shared="true"/>
      </constraints>
      <costs><cost name="pts" typeId="pts" value="45"/></costs>
    </selectionEntry>
    <selectionEntry id="shield" name="Shield of Tests" type="upgrade">
      <costs><cost name="pts" typeId="pts" value="10"/></costs>
    </selectionEntry>
  </sharedSelectionEntries>
</catalogue>
"""


CHAMPION = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat" name="Guards" revision="1" gameSystemId="gs"
    xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="guards" name="Guards" type="unit">
      <selectionEntries>
        <selectionEntry id="captain" name="Captain" type="upgrade">
          <constraints>
            <constraint id="c-min" type="min" value="1" field="selections" scope="parent"/>
          </constraints>
          <entryLinks>
            <entryLink id="c-shield" name="Shield" targetId="shield" type="selectionEntry"/>
          </entryLinks>
        </selectionEntry>
        <selectionEntry id="banner" name="Secret Banner" type="upgrade" hidden="true">
          <constraints>
            <constraint id="b-min" type="min" value="1" field="selections" scope="parent"/>
          </constraints>
        </selectionEntry>
      </selectionEntries>
      <entryLinks>
        <entryLink id="g-shield" name="Shield" targetId="shield" type="selectionEntry"/>
      </entryLinks>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntries>
    <selectionEntry id="shield" name="Shield" type="upgrade">
      <constraints>
        <constraint id="one-shield" type="max" value="1" field="selections" scope="parent"
            shared="true"/>
        <constraint id="s-min" type="min" value="1" field="selections" scope="parent"
            shared="true"/>
      </constraints>
    </selectionEntry>
  </sharedSelectionEntries>
</catalogue>
"""


def sample_data(*catalogues: str | bytes, system: str | bytes = GST) -> GameData:
    """`system` and `catalogues` (the Knights, CAT, when none is given) read as the engine
    reads their files, named test.gst, test.cat, test-2.cat and on in order."""
    files = catalogues or (CAT,)
    return GameData(read_data_file(_encoded(system), "test.gst"),
                    [read_data_file(_encoded(xml), "test.cat" if index == 0 else
                                    f"test-{index + 1}.cat")
                     for index, xml in enumerate(files)])


def _encoded(xml: str | bytes) -> bytes:
    return xml.encode() if isinstance(xml, str) else xml
