"""Shared test setup."""

import pytest
import torch

# As in app.py: one intra-op thread. Small models run faster and repeatably this way, and
# tests do not fight each other (or a busy CI machine) for the two cores.
torch.set_num_threads(1)

# Browser fixtures (app_url, class_url, browser, page) for every test module:
# tests/browser_support.py.
from browser_support import app_url, browser, class_url, page, shared_app_url  # noqa: E402,F401

# Trainings started by pages under AppTest run in the hub's threads, inside this process,
# where a test can watch and pause them (tests/test_isolation.py). The worker processes the
# served app uses are tested in tests/test_train_hub.py and by the browser tests.
import explorer.training.hub  # noqa: E402

explorer.training.hub.ENGINE = "threads"


@pytest.fixture(autouse=True)
def _fresh_training_hub():
    """Each test starts with an empty hub: a training another test finished is not shared."""
    explorer.training.hub._HUB = None
    yield
    explorer.training.hub._HUB = None


@pytest.fixture(autouse=True)
def _train_clicks_wait_for_the_end(monkeypatch):
    """A Train (or "Train both") click's run waits for its training to end, however slow
    the machine: the app waits only INLINE_WAIT seconds of training and then shows the rest
    in the background, which would make a test that reads the results depend on the
    machine's speed. Tests of the background path set their own INLINE_WAIT."""
    from explorer.sections import experiment as experiment_view
    from explorer.sections import train as train_view

    monkeypatch.setattr(train_view, "INLINE_WAIT", 600.0)
    monkeypatch.setattr(experiment_view, "INLINE_WAIT", 600.0)


# Markers (pyproject.toml). `make test-fast` leaves out both; `make test` runs everything.
#
# `browser`: the test drives Chromium. It uses the fixtures of tests/browser_support.py, or it
# serves the app and opens Chromium itself (it calls need_browser()), or it is a bench smoke
# run that needs Chromium.
#
# `slow`: the bench scripts' smoke runs (a test named *_smoke in test_bench_* or
# test_load_smoke), and the tests below, whose cost is not worth it in the inner loop. Each
# page and feature keeps fast tests; the comments say which cover what a slow one checks.
BROWSER_FIXTURES = {"page", "browser", "app_url", "class_url"}
BROWSER_CALLS = {"need_browser", "_need_browser"}
BENCH_MODULES = ("test_bench_", "test_load_smoke")

SLOW = {
    # Sessions are isolated: test_import_explore's test_another_session_keeps_the_sidebar_model
    # and test_page_train's test_train_button_trains_in_this_session_only stay fast.
    "test_isolation": {"test_training_and_model_changes_in_one_session_leave_the_other_untouched"},
    # A model learns: test_train's and test_recipes' short trainings stay fast.
    "test_recipes": {"test_fast_recipe_learns_the_annotated_copy_task"},
    "test_train": {"test_greedy_decode_pads_after_end_of_sentence",  # their fixture trains
                   "test_copy_task_is_learned"},
    # The Train page: it renders, decodes, validates, and a Train click trains in its session.
    "test_page_train": {"test_early_stop_ends_training_once_learned",
                        "test_page_refuses_to_train_paper_base",
                        "test_training_copy_learns_and_keeps_history",
                        "test_copies_of_one_training_share_their_decodings_and_figures",
                        "test_a_train_click_starts_one_training_before_the_page_is_drawn",
                        "test_a_cut_sentence_says_why_and_a_wrong_answer_is_explained",
                        "test_the_stop_check_and_the_held_out_evaluation_are_named_apart",
                        "test_an_early_ticket_left_behind_by_an_interrupted_run_goes_on_until_stop"},
    "test_train_wording": {
        "test_the_download_says_a_reload_loses_the_model",
        "test_sections_keep_their_numbers_once_trained",
        "test_a_date_typed_after_choosing_the_date_task_keeps_the_model_choice",
        "test_an_experiment_stopped_before_the_broken_model_started_says_just_that",
        "test_one_word_left_out_and_one_unknown_character",
        "test_the_page_says_an_emptied_date_box_is_empty",
        "test_the_model_labels_do_not_change_with_the_task_or_the_sidebar"},
    # Background trainings: the status, a learner who comes back, a session gone.
    "test_train_background": {
        "test_a_training_goes_on_through_clicks_pages_and_languages_and_ends_on_stop",
        "test_train_again_with_the_same_settings_says_so_and_offers_a_replay_or_a_new_seed",
        "test_a_training_that_ends_while_the_learner_is_elsewhere_becomes_their_model",
        "test_a_queued_training_does_not_hold_the_page_and_shows_its_place",
        "test_a_new_training_replaces_the_one_under_way"},
    # The hub (in threads): slots, the queue, copies, determinism with dropout. Its worker
    # processes (each starts a Python that imports torch) are tested in `make test` only.
    "test_train_hub": {
        "test_a_worker_process_stops_and_copies_on_request",
        "test_a_learner_who_stops_while_others_wait_gets_a_copy_and_the_others_go_on",
        "test_a_worker_that_may_use_two_threads_trains_the_bytes_of_one",
        "test_a_worker_process_trains_the_same_model_as_a_thread",
        "test_training_is_deterministic",
        "test_the_number_of_threads_does_not_change_the_trained_weights",
        "test_the_time_limit_counts_training_not_the_queue",
        "test_a_learner_who_stops_alone_ends_the_training"},
    "test_worker_start": {"test_a_worker_does_not_run_the_main_script_again"},
    "test_teaching_numbers": {"test_the_common_mistakes_show_live_numbers"},
    "test_train_stop": {"test_held_out_matches_sequence_accuracy_and_counts_lengths"},
    # The experiment: the section trains both (English), the arms, forged values, a stop.
    "test_experiment_page": {"test_a_missing_mask_trains_perfectly_and_decodes_nothing",
                             "test_every_part_broken_at_once_trains_anyway_and_says_so",
                             "test_smoothing_break_shows_its_epsilon",
                             "test_hostile_sentences_in_the_words_task",
                             "test_train_both_goes_on_through_other_clicks_and_ends_on_stop",
                             "test_train_both_waits_its_turn_in_the_servers_queue_and_can_leave_it",
                             "test_a_failed_experiment_says_so_and_ends",
                             "test_forged_values_get_a_message_not_a_traceback"},
    # The knock-out: the section with the untrained model, forged values, the pure compute.
    "test_knockout": {"test_the_section_with_the_date_translator",
                      "test_a_knock_out_in_one_session_leaves_another_and_the_shared_model_alone",
                      "test_the_shipped_model_loses_accuracy_without_heads_and_is_never_changed",
                      "test_hostile_texts_give_no_exception",
                      "test_a_head_left_over_becomes_the_whole_feed_forward_network"},
    # The film: the probes, thinning, the byte budget, the figures.
    "test_film": {"test_training_films_the_diagonal_forming_on_copy",
                  "test_the_train_page_shows_the_film_after_training",
                  "test_recording_does_not_change_training"},
    # Beam search: the pure search, the tree, the widgets, the section with an import.
    "test_beam_view": {"test_the_beam_section_with_a_trained_model",
                       "test_beam_size_one_agrees_with_greedy_on_the_page_for_the_date_task",
                       "test_forged_values_on_the_page_warn_and_fall_back",
                       "test_hostile_sentences_on_the_page"},
    # The date task: its recipe, a short run with its film, links, the shipped translator.
    "test_train_dates": {"test_the_train_page_trains_and_decodes_dates",
                         "test_a_trained_date_model_is_shown_on_other_pages_as_your_model"},
    "test_task_split": {"test_the_page_says_which_sequences_are_held_out"},
    # Served for real, driven through the protocol (10 s and 7 s): the Streamlit behaviours
    # they rest on are checked fast by tests/test_streamlit_internals.py (item 5: a tick
    # merged into a pending page run; item 3: a timed fragment announces its timer) and
    # test_class_timers_last's pure tests of what a page draws last.
    "test_class_page_change_ticks": {
        "test_a_tick_sent_before_the_browser_read_a_page_change_runs_nothing"},
    "test_class_timers_last": {"test_the_class_panels_timers_reach_the_browser_after_the_page",
                               "test_a_tick_of_the_class_look_announces_its_timer_again"},
    # Hostile texts through a whole lesson page (40 runs): the file and link forms of the
    # same texts stay fast (test_lessons' refused-with-a-rule test).
    "test_lessons": {"test_hostile_texts_in_a_lesson_are_shown_as_typed"},
    # Every held-out cell of the shipped translator (17,202 dates): test_date_cells' day-30
    # test and the file's recorded cells stay fast.
    "test_date_cells": {"test_every_held_out_cell_of_the_shipped_model_reaches_the_target"},
    # The model a page looks at: every page shows each source (their first cases).
    "test_sources": {"test_the_files_alignment_is_the_scripts_measure_of_its_weights",
                     "test_your_trained_model_is_shown_as_a_copy_with_a_longer_table",
                     "test_the_alignment_sentence_is_measured_on_the_live_model",
                     "test_your_model_is_not_shown_while_a_thread_trains_it",
                     "test_the_first_page_shows_trained_attention_on_an_editable_date"},
    # Presenter mode: every text grows, own element keys, every figure enlarged.
    "test_presenter_layout": {"test_training_in_presenter_mode_draws_every_loss_chart_large",
                              "test_target_masks_have_their_row_labels_outside_and_room_for_them"},
    # The pages: every page renders (tiny), hostile text on the Attention page
    # (test_hostile_text_never_breaks_a_page_or_becomes_markup's first case); paper base's
    # size is test_settings' test_param_cap_names_the_limit_and_paper_base_fits.
    "test_pages": {"test_paper_base_renders_every_page",
                   "test_hostile_text_on_every_other_page",
                   "test_huge_grids_fall_back_to_head_averages_with_a_message"},
    "test_page_model": {"test_model_page_paper_base",
                        "test_read_the_code_shows_live_shapes_for_each_component"},
    "test_figure_labels": {
        "test_cell_numbers_are_sized_to_their_cells_and_left_out_of_narrow_ones"},
    "test_links": {"test_a_layer_and_head_the_model_lost_leave_the_link"},
    # Imports: every page shows one, the export's long sentences, what a page says of it.
    "test_import_explore": {"test_an_exported_copy_model_is_checked_against_the_copy_rule"},
    "test_export_files": {"test_a_trained_models_checkpoint_npz_names_its_answer"},
    "test_exports": {"test_npz_is_compressed_and_for_a_larger_model_still_complete"},
    "test_glossary": {"test_glossary_expander_is_the_last_thing_in_the_sidebar"},
    # Chinese: the pure modules' messages, the sidebar and a page in Chinese.
    "test_i18n": {"test_component_summaries_describe_the_model_as_built",
                  "test_model_page_in_chinese_through_app_py",
                  "test_train_page_in_chinese_after_training"},
}

# Parametrized tests of which test-fast runs the first case only (one page, one language, one
# hostile text); their other cases are `slow`.
FIRST_CASE_ONLY = {
    "test_pages": {"test_hostile_text_never_breaks_a_page_or_becomes_markup",
                   "test_a_forged_mask_size_falls_back_to_the_sentence",
                   "test_the_subsequent_mask_takes_any_size_independent_of_the_target"},
    "test_experiment_page": {"test_the_section_trains_both_and_explains_the_result"},
    "test_experiments": {"test_a_forged_meta_version_is_dropped_on_import",
                         "test_a_switch_changes_the_config_in_one_field_and_no_weight"},
    "test_capture": {"test_capture_changes_nothing"},
    "test_links": {"test_tampered_links_fall_back_with_a_notice_never_an_error",
                   "test_presenter_averaging_lengths_and_filters_travel_in_the_link"},
    "test_sources": {"test_every_page_shows_your_trained_model",
                     "test_hostile_text_through_the_date_translator",
                     "test_every_page_shows_an_imported_checkpoint",
                     "test_every_page_shows_the_date_translator",
                     "test_the_preview_says_when_the_text_is_not_a_date_it_was_trained_on",
                     "test_a_target_left_in_the_box_is_named_and_cleared_in_one_click",
                     "test_the_preview_takes_any_text"},
    "test_beam_view": {"test_forged_widget_values_are_refused_with_a_warning",
                       "test_hostile_sentences_search_and_draw_safely"},
    "test_i18n": {"test_every_translated_choice_is_kept_on_a_language_change",
                  "test_page_in_chinese"},
    "test_presenter_layout": {
        "test_forged_mask_lengths_fall_back_to_the_defaults",
        "test_every_text_of_every_chart_grows_in_presenter_mode",
        "test_long_sentences_keep_the_attention_grid_labels_apart",
        "test_head_split_follows_the_part_and_layer_filters",
        "test_forged_shape_filters_fall_back_to_the_defaults",
        "test_presenter_figure_enlarges_every_text_and_leaves_the_original_alone"},
    "test_figure_labels": {"test_every_token_label_of_every_heatmap_is_in_the_figure",
                           "test_no_tick_marks_between_panels",
                           "test_no_colour_bar_lies_under_the_toolbar"},
    "test_import_explore": {"test_every_page_runs_the_export_on_a_long_sentence",
                            "test_every_page_shows_the_imported_model",
                            "test_the_train_page_decodes_the_sidebar_text_with_the_import"},
    "test_checkpoint": {"test_the_apps_own_export_loads_with_its_config_and_vocab"},
    "test_task_split": {
        "test_training_never_draws_a_held_out_sequence_and_evaluation_draws_only_them"},
    "test_train_hub": {"test_leaving_the_queue"},
    "test_knockout": {"test_the_sections_sentences_agree_with_each_other",
                      "test_forged_widget_values_are_refused_with_a_warning",
                      "test_the_section_with_the_untrained_model"},
    "test_train_wording": {"test_sections_are_numbered_one_to_seven_whatever_is_shown",
                           "test_the_date_task_counts_languages_and_locales_apart"},
    "test_seed_mistakes": {"test_attention_page_shows_k_and_v_differ",
                           "test_masks_page_shows_the_exact_zeros",
                           "test_masks_page_shows_both_unsqueezes",
                           "test_shapes_page_shows_the_walk"},
    # A class taught a lesson: SQLite's case (both stores' rules: tests/test_class_store.py)
    "test_lesson_class": {
        "test_a_student_paced_lesson_moves_each_student_alone_and_the_teacher_sees_where",
        "test_a_locked_step_takes_a_students_own_change_back_and_ends_with_the_step",
        "test_a_lock_brings_an_exploring_student_back_to_the_class",
        "test_a_countdown_closes_the_answers_and_every_student_sees_it",
        "test_the_teacher_closes_the_answers_and_a_late_student_waits_for_the_reveal"},
    "test_teaching_numbers": {
        "test_the_model_page_compares_the_two_layernorms_on_the_sentence",
        "test_the_bias_free_layout_is_compared_with_live_numbers",
        "test_the_loss_explainer_gives_ln_of_the_chosen_tasks_vocabulary",
        "test_the_scaling_note_gives_the_live_tables_range_and_xaviers_bound",
        "test_the_walk_throughs_shape_examples_are_computed_on_the_shapes_page",
        "test_the_annotated_transformers_smoothing_examples_are_reproduced"},
}


def _is_browser(item, fixtures: set[str]) -> bool:
    code = getattr(getattr(item, "function", None), "__code__", None)
    calls = set(code.co_names) if code is not None else set()
    needs_chromium = any("Chromium" in str(mark.kwargs.get("reason", ""))
                         for mark in item.iter_markers("skipif"))
    return bool(BROWSER_FIXTURES & fixtures or BROWSER_CALLS & calls or needs_chromium)


def pytest_collection_modifyitems(config, items):
    seen: set[tuple[str, str]] = set()  # (module, function) of FIRST_CASE_ONLY tests met
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1]
        name = item.originalname
        params = item.callspec.params if hasattr(item, "callspec") else {}
        fixtures = set(getattr(item, "fixturenames", ())) - set(params)  # not a "page" param
        if _is_browser(item, fixtures):
            item.add_marker(pytest.mark.browser)
        if module.startswith(BENCH_MODULES) and name.endswith("_smoke"):
            item.add_marker(pytest.mark.slow)
        elif name in SLOW.get(module, ()):
            item.add_marker(pytest.mark.slow)
        elif name in FIRST_CASE_ONLY.get(module, ()):
            if (module, name) in seen:
                item.add_marker(pytest.mark.slow)
            seen.add((module, name))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report also says what its browser pages showed, when a fixture of it
    can tell (`describe_pages(name)`): a failure seen once on CI can be read from its log."""
    report = yield
    if report.when == "call" and report.failed:
        for value in getattr(item, "funcargs", {}).values():
            describe = getattr(value, "describe_pages", None)
            if callable(describe):
                try:
                    report.sections.append(("pages when it failed", describe(item.name)))
                except Exception as exc:  # a browser that is gone: the failure stays the news
                    report.sections.append(("pages when it failed", repr(exc)))
    return report
