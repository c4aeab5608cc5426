"""The Embeddings page takes its PE settings from the session state (a shared link) cleanly,
and drops the dimensions a smaller d_model lost from the widget, the figure and the link."""

from pathlib import Path
from unittest import mock

from apptest_helpers import app, figure_list, reopen
from streamlit.elements.lib import policies
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def _curves(at) -> list[str]:
    return [trace["name"] for trace in figure_list(at)[0]["data"]]


def test_link_state_is_used_without_the_duplicate_value_warning():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["ped"] = "30"
    at.query_params["dims"] = "1,2,9"
    at.switch_page("pages/embeddings.py")
    policies._shown_default_value_warning = False  # Streamlit logs it once per process
    with mock.patch.object(policies._LOGGER, "warning") as warn:
        at.run()
    assert not at.exception
    assert not [c for c in warn.call_args_list if "default value" in str(c)]
    assert at.number_input(key="pe_d_model").value == 30
    assert at.multiselect(key="pe_dims").value == [1, 2, 9]
    assert _curves(at) == ["dim 1 (cos)", "dim 2 (sin)", "dim 9 (cos)"]
    assert figure_list(at)[0]["layout"]["title"]["text"] == "PE for d_model = 30"


def _pe_link(at: AppTest) -> dict[str, str | None]:
    return {k: dict(at.query_params).get(k) for k in ("ped", "dims")}


def test_dimensions_beyond_a_smaller_d_model_leave_the_widget_the_figure_and_the_link():
    at = app("embeddings")
    assert at.number_input(key="pe_d_model").value == 20
    assert at.multiselect(key="pe_dims").value == [4, 5, 6, 7]
    at.multiselect(key="pe_dims").set_value([1, 2, 9]).run()
    assert _pe_link(at) == {"ped": None, "dims": "1,2,9"}
    at.number_input(key="pe_d_model").set_value(8).run()  # dimension 9 is gone
    assert not at.exception
    assert at.multiselect(key="pe_dims").value == [1, 2]
    assert _pe_link(at) == {"ped": "8", "dims": "1,2"}
    other = reopen(at, "embeddings")
    assert not other.sidebar.warning  # nothing in the link was refused
    assert other.multiselect(key="pe_dims").value == [1, 2]

    at.multiselect(key="pe_dims").set_value([5, 7]).run()
    at.number_input(key="pe_d_model").set_value(3).run()  # rounded up to 4: none is left
    assert not at.exception
    assert at.multiselect(key="pe_dims").value == [0, 1]  # back to the default
    assert _curves(at) == ["dim 0 (sin)", "dim 1 (cos)"]
    assert _pe_link(at) == {"ped": "4", "dims": "0,1"}
    assert not reopen(at, "embeddings").sidebar.warning
